import type { RequestLogEntry } from '../../../src-shared/domain/request-log';

/** A served request as the core lists it, for component tests; `extra` replaces what a test is about. */
export const activityEntry = (id: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id,
  ts: 1_700_000_000_000 + id * 1000,
  keyName: 'laptop',
  apiFormat: 'anthropic',
  endpoint: 'messages',
  model: 'claude-sonnet-4-5',
  connection: 'main',
  status: 200,
  stream: true,
  latencyMs: 1200,
  ttfbMs: 300,
  inputTokens: 1200,
  outputTokens: 340,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  failover: [],
  errorCode: null,
  servedVia: null,
  sessionPin: null,
  ...extra,
});

/** A failover: primary answered 429 with its retry hints, backup served. */
export const failoverEntry = (id: number): RequestLogEntry =>
  activityEntry(id, {
    model: 'everyday',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    connection: 'backup',
    failover: [{ connection: 'primary', status: 429, reason: 'rate_limited' }],
    attempts: [
      {
        connection: 'primary',
        status: 429,
        reason: 'rate_limited',
        ms: 42,
        upstreamModel: 'claude-sonnet-4-5',
        headers: { 'retry-after': '30', 'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z' },
      },
      { connection: 'backup', status: 200, reason: 'served', ms: 310, upstreamModel: 'claude-sonnet-4-5-20250929' },
    ],
    servedVia: 'limit-reset',
    translated: 'anthropic->openai',
    heldMs: 1_500,
    sessionPin: 'moved',
  });

/** A wrong key, refused by Leeway before routing: no key, no connection, no attempt. */
export const refusedEntry = (id: number): RequestLogEntry =>
  activityEntry(id, {
    keyName: null,
    model: null,
    connection: null,
    status: 401,
    stream: false,
    ttfbMs: null,
    inputTokens: null,
    outputTokens: null,
    errorCode: 'unauthorized',
    errorMessage: 'Invalid local API key',
    attempts: [],
  });
