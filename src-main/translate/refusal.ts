import type { TranslateRefusal } from './translate-types';

/** A failed step: the same shape as a refused `RequestTranslation`, so it can be returned as is. */
export interface Refused {
  ok: false;
  refusal: TranslateRefusal;
}

export type Step<T> = { ok: true; value: T } | Refused;

export function refuse(field: string, message: string): Refused {
  return { ok: false, refusal: { field, message } };
}

export function done<T>(value: T): Step<T> {
  return { ok: true, value };
}
