import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';

// Small readers for fields OpenAI-compatible servers spell in more than one way.

/** The stop sequences an Anthropic client asked for (strings only). */
export function requestStopSequences(request: Json): string[] {
  const list = asArray(request.stop_sequences);
  if (!list) return [];
  const out: string[] = [];
  for (const item of list) if (typeof item === 'string') out.push(item);
  return out;
}

/** The stop string a Chat choice says it matched: vLLM's `stop_reason`, SGLang's `matched_stop`. */
export function matchedStopOf(choice: Json | null): string | null {
  if (!choice) return null;
  return asString(choice.stop_reason) ?? asString(choice.matched_stop);
}

/** Reasoning text on a Chat message or delta: `reasoning_content` (DeepSeek, GLM, Kimi) or `reasoning` (OpenRouter, vLLM). */
export function reasoningOf(message: Json | null): string | null {
  if (!message) return null;
  return asString(message.reasoning_content) ?? asString(message.reasoning);
}

/** The first choice of a Chat body or chunk (index 0; other choices only exist with n > 1). */
export function firstChoice(body: Json): Json | null {
  const choices = asArray(body.choices);
  if (!choices) return null;
  for (const value of choices) {
    const choice = asObject(value);
    if (choice && (choice.index === undefined || choice.index === 0)) return choice;
  }
  return null;
}
