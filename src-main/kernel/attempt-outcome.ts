/** What one attempt at an upstream produced, as the learn step sees it. */
export type UpstreamOutcome =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string | string[] | undefined>;
      bodyText: string;
      /** An announced end of the failure (a Claude usage wall's reset): cool until then, not a computed guess. */
      cooldownUntil?: number;
    }
  /** `empty_response`: a 2xx that failed Leeway's check (empty, not JSON, no first event) — LOCK-4's synthesised 502. */
  | { kind: 'transport'; failure: 'timeout' | 'unreachable' | 'reset' | 'empty_response' };

/** The learn step's answer for the proxy: whether to move on, and what to tell the client. */
export interface AttemptVerdict {
  shouldFailover: boolean;
  /** Status to show the client if this answer is relayed (after restatement). */
  status: number | null;
  /** Announced to the client as Retry-After when the upstream did not send one. */
  retryAfterMs: number | null;
  /** Short machine reason for the failover header and the activity log. */
  reason: string;
}

/** One admitted attempt; a held breaker probe slot (HALF_OPEN admits a few) is freed by release(). */
export interface Admission {
  readonly probe: boolean;
  release(): void;
}
