import type { Json, SseOut } from './translate-types';

/** An Anthropic event: the `event:` name repeats the payload's `type`, as Anthropic sends it. */
export function anthropicEvent(payload: Json & { type: string }): SseOut {
  return { event: payload.type, data: JSON.stringify(payload) };
}

/** A Chat stream line: `data:` only, no event name. */
export function chatData(payload: Json): SseOut {
  return { event: null, data: JSON.stringify(payload) };
}

export function chatDone(): SseOut {
  return { event: null, data: '[DONE]' };
}
