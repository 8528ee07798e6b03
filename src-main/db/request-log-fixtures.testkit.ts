import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';

/** A served request's row for tests, every field set; `over` replaces what a test is about. */
export function logEntry(over: Partial<NewRequestLogEntry> = {}): NewRequestLogEntry {
  return {
    ts: 1_000,
    keyName: 'laptop',
    apiFormat: 'anthropic',
    endpoint: 'messages',
    model: 'main',
    connection: 'backup',
    status: 200,
    stream: false,
    latencyMs: 900,
    ttfbMs: 300,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
    ...over,
  };
}
