import type { Json } from './translate-types';

/**
 * Gemini bodies are proto3 JSON, which accepts each field in lowerCamelCase and in its proto
 * snake_case name: the SDKs send `inlineData`, Google's own curl examples `inline_data` and
 * `mime_type`. Requests are read through this, so both spellings mean the same.
 */
const SNAKE = new Map<string, string>();

function snakeOf(name: string): string {
  let snake = SNAKE.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    SNAKE.set(name, snake);
  }
  return snake;
}

/** `body[name]` in either spelling (camelCase first). */
export function pick(body: Json | null | undefined, name: string): unknown {
  if (!body) return undefined;
  const camel = body[name];
  return camel !== undefined ? camel : body[snakeOf(name)];
}

/** The camelCase name of a key in either spelling, for naming what was dropped or refused. */
export function camelOf(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Whether a value was given (null is how some clients leave a field unset). */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}
