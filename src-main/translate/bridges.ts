import type { WireFormat } from '../../src-shared/domain/connection';
import type { UpstreamOperation } from '../kernel/provider-adapter';
import type { RuntimeConnection } from '../kernel/catalog';
import { wireFit } from '../kernel/wire-fit';
import { chatRequestFromMessages } from './chat-request-from-messages';
import { chatRequestFromResponses } from './chat-request-from-responses';
import { chatResponseFromMessages } from './chat-response-from-messages';
import { chatStreamFromMessages } from './chat-stream-from-messages';
import { messagesRequestFromChat } from './messages-request-from-chat';
import { messagesResponseFromChat } from './messages-response-from-chat';
import { messagesStreamFromChat } from './messages-stream-from-chat';
import { responsesResponseFromChat } from './responses-response-from-chat';
import { responsesStreamFromChat } from './responses-stream-from-chat';
import { CHAT_TO_GEMINI, GEMINI_TO_CHAT, GEMINI_TO_MESSAGES, MESSAGES_TO_GEMINI } from './gemini-hops';
import type { RequestTranslator, ResponseTranslator, StreamTranslatorFactory } from './translate-types';

/**
 * One translation step between two adjacent formats: the request goes client-side → upstream-side,
 * answers come back upstream-side → client-side (and are given the client-side request they answer).
 */
export interface Hop {
  request: RequestTranslator;
  response: ResponseTranslator;
  stream: StreamTranslatorFactory;
}

/** How a request reaches a connection of another format: the hops in order, and the upstream operation. */
export interface Bridge {
  /** `client->upstream`, for the response header and the activity row (`anthropic->openai`). */
  label: string;
  operation: UpstreamOperation;
  /** The upstream's wire format (its answers are parsed as this). */
  upstreamWire: WireFormat;
  hops: readonly Hop[];
}

const MESSAGES_TO_CHAT: Hop = {
  request: chatRequestFromMessages,
  response: messagesResponseFromChat,
  stream: messagesStreamFromChat,
};
const CHAT_TO_MESSAGES: Hop = {
  request: messagesRequestFromChat,
  response: chatResponseFromMessages,
  stream: chatStreamFromMessages,
};
const RESPONSES_TO_CHAT: Hop = {
  request: chatRequestFromResponses,
  response: responsesResponseFromChat,
  stream: responsesStreamFromChat,
};

function bridge(client: WireFormat, upstream: WireFormat, operation: UpstreamOperation, hops: Hop[]): Bridge {
  return { label: `${client}->${upstream}`, operation, upstreamWire: upstream, hops };
}

/** Built once: a bridge is plain data, picked per attempt without allocating. */
const BRIDGES = {
  anthropicToOpenai: bridge('anthropic', 'openai', 'chat_completions', [MESSAGES_TO_CHAT]),
  openaiToAnthropic: bridge('openai', 'anthropic', 'messages', [CHAT_TO_MESSAGES]),
  responsesToOpenai: bridge('responses', 'openai', 'chat_completions', [RESPONSES_TO_CHAT]),
  // No direct Responses ⇄ Messages translator: Chat Completions is the common middle (one more parse).
  responsesToAnthropic: bridge('responses', 'anthropic', 'messages', [RESPONSES_TO_CHAT, CHAT_TO_MESSAGES]),
  // Issue 23: Gemini ⇄ Messages is direct (thinking signatures, top_k, PDFs); the rest goes through Chat.
  geminiToAnthropic: bridge('gemini', 'anthropic', 'messages', [GEMINI_TO_MESSAGES]),
  geminiToOpenai: bridge('gemini', 'openai', 'chat_completions', [GEMINI_TO_CHAT]),
  anthropicToGemini: bridge('anthropic', 'gemini', 'generate_content', [MESSAGES_TO_GEMINI]),
  openaiToGemini: bridge('openai', 'gemini', 'generate_content', [CHAT_TO_GEMINI]),
  responsesToGemini: bridge('responses', 'gemini', 'generate_content', [RESPONSES_TO_CHAT, CHAT_TO_GEMINI]),
} as const;

/**
 * The bridge a request of `wire` needs to reach this connection, or null when it is served as is
 * (same format: the bytes stay untouched). Refusal by the connection is routing's concern (wireFit).
 */
export function bridgeFor(wire: WireFormat, connection: RuntimeConnection): Bridge | null {
  if (wireFit(connection, wire) === 'native') return null;
  const upstream = connection.adapter.format;
  switch (wire) {
    case 'anthropic':
      return upstream === 'openai'
        ? BRIDGES.anthropicToOpenai
        : upstream === 'gemini'
          ? BRIDGES.anthropicToGemini
          : null;
    case 'openai':
      return upstream === 'anthropic'
        ? BRIDGES.openaiToAnthropic
        : upstream === 'gemini'
          ? BRIDGES.openaiToGemini
          : null;
    case 'responses':
      if (upstream === 'gemini') return BRIDGES.responsesToGemini;
      return upstream === 'anthropic' ? BRIDGES.responsesToAnthropic : BRIDGES.responsesToOpenai;
    case 'gemini':
      return upstream === 'anthropic'
        ? BRIDGES.geminiToAnthropic
        : upstream === 'openai'
          ? BRIDGES.geminiToOpenai
          : null;
  }
}
