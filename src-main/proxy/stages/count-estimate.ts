import type { Target } from '../../kernel/target';
import { estimateInputTokens } from '../../translate/count-tokens-estimate';
import { parseObject } from '../../translate/json-narrow';
import type { Answer } from './attempt-record';
import type { RequestFrame } from './frame';

/** The answer header that says a count is Leeway's estimate, not the upstream's tokenizer. */
export const ESTIMATED_HEADER = 'x-leeway-estimated';

/**
 * count_tokens for a connection that cannot count (an OpenAI-format upstream, or an Anthropic one
 * answering 404/405): an estimate in Anthropic's shape, marked as such (issue 12 §3). A body that
 * does not parse is estimated from its size: the answer is a count, never an error.
 */
export function estimatedCount(frame: RequestFrame, target: Target): Answer {
  const body = parseObject(frame.request.body.toString('utf8'));
  const tokens = body ? estimateInputTokens(body) : Math.ceil(frame.request.body.length / 4);
  return {
    kind: 'local',
    connection: target.connection.view.name,
    body: JSON.stringify({ input_tokens: tokens }),
    headers: { [ESTIMATED_HEADER]: 'true' },
  };
}
