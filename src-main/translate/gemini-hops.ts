import type { Hop } from './bridges';
import { chatRequestFromGemini } from './chat-request-from-gemini';
import { chatResponseFromGemini } from './chat-response-from-gemini';
import { chatStreamFromGemini } from './chat-stream-from-gemini';
import { geminiRequestFromChat } from './gemini-request-from-chat';
import { geminiRequestFromMessages } from './gemini-request-from-messages';
import { geminiResponseFromChat } from './gemini-response-from-chat';
import { geminiResponseFromMessages } from './gemini-response-from-messages';
import { geminiStreamFromChat } from './gemini-stream-from-chat';
import { geminiStreamFromMessages } from './gemini-stream-from-messages';
import { messagesRequestFromGemini } from './messages-request-from-gemini';
import { messagesResponseFromGemini } from './messages-response-from-gemini';
import { messagesStreamFromGemini } from './messages-stream-from-gemini';

/**
 * The Gemini hops, for the bridges to come (issue 23 §1): each is one translation step, the
 * request client-side → upstream-side and the answers back. Gemini ⇄ Messages is direct, not
 * through Chat (README "Gemini"). A Responses client reaches a Gemini connection through Chat:
 * [RESPONSES_TO_CHAT, CHAT_TO_GEMINI].
 */

/** A Gemini client served by an OpenAI-compatible connection. */
export const GEMINI_TO_CHAT: Hop = {
  request: chatRequestFromGemini,
  response: geminiResponseFromChat,
  stream: geminiStreamFromChat,
};

/** A Gemini client served by an Anthropic connection. */
export const GEMINI_TO_MESSAGES: Hop = {
  request: messagesRequestFromGemini,
  response: geminiResponseFromMessages,
  stream: geminiStreamFromMessages,
};

/** An OpenAI (Chat Completions) client served by a Gemini connection. */
export const CHAT_TO_GEMINI: Hop = {
  request: geminiRequestFromChat,
  response: chatResponseFromGemini,
  stream: chatStreamFromGemini,
};

/** An Anthropic client served by a Gemini connection. */
export const MESSAGES_TO_GEMINI: Hop = {
  request: geminiRequestFromMessages,
  response: messagesResponseFromGemini,
  stream: messagesStreamFromGemini,
};
