/** What a lock covers: a quota family (LOCK-2), one model (404, LOCK-3) or the exact triple (LOCK-4). */
export type LockKind = 'quota_family' | 'model' | 'exact';
/** What a caller may ask for explicitly (LOCK-5); `model` only ever comes from a 404. */
export type LockoutScope = 'quota_family' | 'exact';

/** 402/403/404/429 speak about quota or entitlement; everything else about one response (LOCK-2..5). */
export function resolveLockoutScope(status: number | null, explicit?: LockoutScope): LockoutScope {
  if (explicit) return explicit;
  return status === 402 || status === 403 || status === 404 || status === 429 ? 'quota_family' : 'exact';
}

/**
 * The quota family a model belongs to. None of Leeway's providers (Anthropic, Claude OAuth,
 * OpenAI, OpenAI-compatible) shares one quota across a set of models the way Codex's `gpt-5*`
 * does, so, as in the reference for such providers, the family is the model itself; a
 * connection-wide limit is connection cooldown's business (COOL-14). Add families here.
 */
export function quotaFamilyOf(_provider: string, model: string): string {
  return model;
}

/** `provider:connectionId:family`; entries keep their parts, keys are never parsed back (provider ids contain `:`). */
export function familyKey(provider: string, connectionId: string, model: string): string {
  return `${provider}:${connectionId}:${quotaFamilyOf(provider, model)}`;
}

export function modelKey(provider: string, connectionId: string, model: string): string {
  return `${provider}:${connectionId}:${model}`;
}

/** Exact keys ignore case and stray spaces so `GPT-X ` and `gpt-x` share one lock. */
export function exactKey(provider: string, connectionId: string, model: string): string {
  return `${provider}:${connectionId}:exact:${model.trim().toLowerCase()}`;
}

/** Which key a failure locks: 404 narrows the family to the bare model (LOCK-3). */
export function lockTarget(
  provider: string,
  connectionId: string,
  model: string,
  status: number | null,
  explicit?: LockoutScope,
): { key: string; kind: LockKind } {
  if (resolveLockoutScope(status, explicit) === 'exact')
    return { key: exactKey(provider, connectionId, model), kind: 'exact' };
  if (status === 404 && !explicit) return { key: modelKey(provider, connectionId, model), kind: 'model' };
  return { key: familyKey(provider, connectionId, model), kind: 'quota_family' };
}

/** Every key that can hold a lock on this model, without duplicates. */
export function keysCovering(provider: string, connectionId: string, model: string): string[] {
  return [
    ...new Set([
      familyKey(provider, connectionId, model),
      modelKey(provider, connectionId, model),
      exactKey(provider, connectionId, model),
    ]),
  ];
}
