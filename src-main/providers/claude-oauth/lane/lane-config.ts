/** The two per-connection opt-ins of the Claude section in the connection editor (LOWP-1, RESET-1). */
export interface LaneOptIns {
  lowPriorityMode: boolean;
  autoLimitReset: boolean;
}

function flag(data: unknown, name: keyof LaneOptIns): boolean {
  if (typeof data !== 'object' || data === null) return false;
  // Only the literal boolean counts: a hand-edited "true" string must not opt anyone in.
  return (data as Record<string, unknown>)[name] === true;
}

/** Reads both opt-ins from `providerSpecificData`; anything but literal `true` is off. */
export function readLaneOptIns(providerSpecificData: unknown): LaneOptIns {
  return {
    lowPriorityMode: flag(providerSpecificData, 'lowPriorityMode'),
    autoLimitReset: flag(providerSpecificData, 'autoLimitReset'),
  };
}

/** True when either opt-in is on, i.e. a wall 429 is worth intercepting at all. */
export function hasAnyOptIn(optIns: LaneOptIns): boolean {
  return optIns.lowPriorityMode || optIns.autoLimitReset;
}

/**
 * State key of one connection's lane: its id, else its access token, else `anon`. Token keys
 * rotate on refresh, which the store's FIFO bound absorbs.
 */
export function laneKey(connectionId?: string | null, accessToken?: string | null): string {
  if (connectionId) return connectionId;
  if (accessToken) return accessToken;
  return 'anon';
}

/** The lane exists only for Claude subscription credentials: OAuth token `sk-ant-oat…`, no API key. */
export function isLaneEligible(kind: string, accessToken?: string | null, apiKey?: string | null): boolean {
  return kind === 'claude-oauth' && !apiKey && (accessToken?.startsWith('sk-ant-oat') ?? false);
}
