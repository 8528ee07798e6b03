/** One attempt at an upstream before the one that answered. */
export interface FailoverHop {
  connection: string;
  status: number | null;
  reason: string;
}

/** One row of the activity log: what a request did, never what it said. */
export interface RequestLogEntry {
  id: number;
  ts: number;
  keyName: string | null;
  apiFormat: 'anthropic' | 'openai' | null;
  endpoint: string;
  model: string | null;
  connection: string | null;
  status: number;
  stream: boolean;
  latencyMs: number;
  ttfbMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  failover: FailoverHop[];
  errorCode: string | null;
  /** Set when a Claude subscription answer came after a provider hook: `low-priority-accepted`, `limit-reset`, `slot-busy`. */
  servedVia: string | null;
  /** What the session's pin did: chose the connection, moved to the one that served, or was made now. */
  sessionPin: SessionPinMark | null;
  /** How long the request waited out short cooldowns before it was served or refused (CONC-7); absent or null: never held. */
  heldMs?: number | null;
}

export type SessionPinMark = 'kept' | 'moved' | 'new';

export type NewRequestLogEntry = Omit<RequestLogEntry, 'id'>;

export interface RequestLogQuery {
  limit?: number;
  beforeId?: number;
  connection?: string;
  model?: string;
  status?: 'ok' | 'error';
}
