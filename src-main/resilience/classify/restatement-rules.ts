/**
 * RESTATE-2: one way a gateway misstates its status. Markers are lower-case substrings; an exclude
 * marker vetoes the rule even when a text marker matches (RESTATE-7).
 */
export interface StatusRestatementRule {
  id: string;
  fromStatuses: readonly number[];
  toStatus: number;
  textMarkers: readonly string[];
  excludeMarkers?: readonly string[];
  /** What the restated response announces to the client when the upstream named no wait (RESTATE-6). */
  defaultRetryAfterMs?: number;
}

/** Restatement rules by service id; the first matching rule of a service wins. */
export type StatusRestatementRegistry = Readonly<Record<string, readonly StatusRestatementRule[]>>;

/**
 * RESTATE-4: agentrouter.org reports its temporary user-quota exhaustion (`用户额度不足` /
 * `额度不足`) as 403, sometimes 400. `无权访问` ("no access", e.g. `无权访问模型`) is permanent and
 * must keep its status so it is not retried forever (RESTATE-7).
 */
export const AGENTROUTER_QUOTA_MISSTATUS: StatusRestatementRule = {
  id: 'agentrouter-quota-misstatus',
  fromStatuses: [403, 400],
  toStatus: 429,
  // Provider-specific markers only: generic English quota phrases overlap the credits-exhausted
  // signals and would terminalise accounts (RESTATE-19).
  textMarkers: ['额度不足'],
  excludeMarkers: ['无权访问'],
  defaultRetryAfterMs: 60_000,
};

/** The built-in restatement registry. */
export const STATUS_RESTATEMENT_RULES: StatusRestatementRegistry = {
  agentrouter: [AGENTROUTER_QUOTA_MISSTATUS],
};
