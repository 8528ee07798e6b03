import { asString } from './json-narrow';

/**
 * Ids between the two formats keep their unique part, so a client that logs or echoes an id can
 * find it upstream: `chatcmpl-abc` ⇄ `msg_abc`. Tool call ids are never rewritten (a tool result
 * names the call it answers).
 */
const CHAT_PREFIX = 'chatcmpl-';
const MESSAGE_PREFIX = 'msg_';

export function messageIdFromChat(id: unknown, seed: string): string {
  const text = asString(id);
  if (!text) return `${MESSAGE_PREFIX}${seed}`;
  if (text.startsWith(MESSAGE_PREFIX)) return text;
  return MESSAGE_PREFIX + (text.startsWith(CHAT_PREFIX) ? text.slice(CHAT_PREFIX.length) : text);
}

export function completionIdFromMessages(id: unknown, seed: string): string {
  const text = asString(id);
  if (!text) return `${CHAT_PREFIX}${seed}`;
  if (text.startsWith(CHAT_PREFIX)) return text;
  return CHAT_PREFIX + (text.startsWith(MESSAGE_PREFIX) ? text.slice(MESSAGE_PREFIX.length) : text);
}

/** A tool call id for an upstream that sent none (some OpenAI-compatible servers omit it). */
export function toolCallIdFor(seed: string, position: number): string {
  return `call_${seed}_${position}`;
}
