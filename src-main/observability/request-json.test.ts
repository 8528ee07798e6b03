import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import { entry } from './observability-fixtures.testkit';
import { requestJson } from './request-json';
import { requestLine } from './request-line';

const TIME = 1_767_268_800_005;

/** The line as pino wrote it before requestJson existed: same options, the same child, the same fields. */
function pinoLine(e: NewRequestLogEntry, msg: string): string {
  let out = '';
  const logger = pino(
    { base: null, timestamp: () => `,"time":${TIME}`, redact: { paths: ['secret', 'apiKey'], censor: '[redacted]' } },
    { write: (line: string) => (out += line) },
  );
  logger.child({ event: 'request' }).info(
    {
      keyName: e.keyName,
      endpoint: e.endpoint,
      model: e.model,
      upstreamModel: e.upstreamModel ?? null,
      connection: e.connection,
      status: e.status,
      ms: e.latencyMs,
      ttfbMs: e.ttfbMs,
      inputTokens: e.inputTokens,
      outputTokens: e.outputTokens,
      errorCode: e.errorCode,
      failover: e.failover,
      translated: e.translated ?? null,
      heldMs: e.heldMs ?? null,
      queuedMs: e.queuedMs ?? null,
    },
    msg,
  );
  return out;
}

const cases: [string, NewRequestLogEntry][] = [
  ['a served request', entry({ upstreamModel: 'claude-sonnet-4-5', latencyMs: 3.25, sessionPin: 'kept' })],
  [
    'a refusal with a failover and every optional field',
    entry({
      keyName: null,
      connection: null,
      status: 429,
      errorCode: 'quota_exceeded',
      ttfbMs: null,
      inputTokens: null,
      outputTokens: null,
      failover: [
        { connection: 'primary', status: 429, reason: 'rate_limited', ms: 12, headers: { 'retry-after': '3' } },
        { connection: 'second', status: null, reason: 'timeout' },
      ],
      translated: 'anthropic->openai',
      heldMs: 1_234,
      queuedMs: 56,
    }),
  ],
  [
    'names that need escaping (quotes, backslashes, control characters, long, non-ASCII)',
    entry({
      keyName: 'say "hi"\\ \n\t\u0001',
      model: `m${'x'.repeat(150)}"`,
      connection: 'zürich → 東京 😀 \u2028\u007f',
      errorCode: 'x%sy',
    }),
  ],
  ['a non-finite number', entry({ latencyMs: Number.NaN, ttfbMs: Number.POSITIVE_INFINITY })],
];

describe('the request JSON line', () => {
  it.each(cases)('ISSUE-13: %s: byte for byte what pino wrote', (_name, e) => {
    const msg = requestLine(e);
    const line = requestJson(e, msg, TIME);
    expect(line).toBe(pinoLine(e, msg));
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
  });

  it('ISSUE-13: a lone surrogate is escaped, so the line stays valid JSON that reads back the same', () => {
    const e = entry({ model: 'bad \ud800 half' });
    const line = requestJson(e, requestLine(e), TIME);
    expect(line).toContain('\\ud800');
    expect(JSON.parse(line)).toMatchObject({ level: 30, time: TIME, event: 'request', model: 'bad \ud800 half' });
  });
});
