import type { WireFormat } from '../../../src-shared/domain/connection';
import type { StreamCut } from '../wire/chunk-observer';
import { geminiErrorBody } from '../../translate/gemini-errors';

/** The last words of a stream that broke after the client already had bytes: an error event it can parse. */
export function streamErrorFrame(format: WireFormat, message: string, code: string): string {
  switch (format) {
    case 'anthropic':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;
    case 'openai':
      return `data: ${JSON.stringify({ error: { message, type: 'server_error', code } })}\n\n`;
    case 'responses':
      // The Responses stream's own failure event: codex reads `response.error` and shows the message.
      return `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', response: { status: 'failed', error: { code, message } } })}\n\n`;
    case 'gemini':
      // Google ends a failing stream with its bare envelope (translate/gemini-errors.ts geminiStreamError).
      return JSON.stringify(geminiErrorBody(500, message));
  }
}

export const LOST = 'Leeway: the upstream connection was lost mid-stream';

export const UNTERMINATED: Record<WireFormat, string> = {
  anthropic: 'Leeway: the upstream stream ended without message_stop; the answer is incomplete',
  openai: 'Leeway: the upstream stream ended without [DONE]; the answer is incomplete',
  responses: 'Leeway: the upstream stream ended without response.completed; the answer is incomplete',
  gemini: 'Leeway: the upstream stream ended without a finishReason; the answer is incomplete',
};

export function tooSlow(decision: StreamCut): string {
  return `Leeway: the upstream produced ${decision.bytesPerSecond.toFixed(1)} useful bytes/s over the last ${decision.windowMs / 1000} s; the stream was cut and the answer is incomplete`;
}
