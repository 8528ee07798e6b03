import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../start-leeway';
import { createPrng } from './prng';
import { exchangeRaw, openRaw, portOf, type RawExchange, type RawResponse } from './raw-http';
import { generateCase, type FuzzCase } from './request-generator';
import { canCountSockets, openServerSockets } from './server-sockets';

/*
 * Random malformed requests over raw sockets to a real Leeway with fake upstreams. Seeded: a
 * failure prints its seed and case number; rerun with LEEWAY_FUZZ_SEED=<seed> to reproduce.
 */
const SEED = Number(process.env.LEEWAY_FUZZ_SEED ?? 20_250_801);
const CASES = Number(process.env.LEEWAY_FUZZ_CASES ?? 800);
const PARALLEL = 12;
const IDLE_MS = 1_000;
const REQUEST_MS = 5_000;
/** A stalled request is answered by the idle limit, or by the header deadline, plus the close grace. */
const CASE_WAIT_MS = REQUEST_MS + 4_000;

let anthropicUp: FakeUpstream;
let openaiUp: FakeUpstream;
let h: RunningLeeway;
let port: number;

beforeAll(async () => {
  anthropicUp = await startFakeUpstream({ format: 'anthropic' });
  openaiUp = await startFakeUpstream({ format: 'openai' });
  h = await startLeeway({
    connections: [
      anthropicConnection('a1', anthropicUp.url, { models: ['claude-sonnet-4-5'] }),
      openaiConnection('o1', openaiUp.url, { models: ['gpt-4o'] }),
    ],
  });
  const updated = await h.core.router.call('settings.update', {
    clientIdleTimeoutMs: IDLE_MS,
    clientRequestTimeoutMs: REQUEST_MS,
    maxBodyBytes: 64 * 1024,
  });
  expect(updated.ok).toBe(true);
  port = portOf(h.url);
});

afterAll(async () => {
  await h.stop();
  await anthropicUp.close();
  await openaiUp.close();
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isAnthropicError(json: unknown): boolean {
  return (
    isRecord(json) &&
    json.type === 'error' &&
    isRecord(json.error) &&
    typeof json.error.type === 'string' &&
    typeof json.error.message === 'string'
  );
}

function isOpenaiError(json: unknown): boolean {
  return (
    isRecord(json) &&
    isRecord(json.error) &&
    typeof json.error.message === 'string' &&
    typeof json.error.type === 'string' &&
    typeof json.error.code === 'string'
  );
}

function isAdminError(json: unknown): boolean {
  return isRecord(json) && json.ok === false && isRecord(json.error) && typeof json.error.code === 'string';
}

/** Problems with one answer; empty when it is what Leeway must send. */
function judgeResponse(c: FuzzCase, response: RawResponse, index: number): string[] {
  const problems: string[] = [];
  if (response.status >= 500 && response.status !== 502 && response.status !== 503 && response.status !== 504)
    problems.push(`status ${response.status}`);
  if (response.status < 400) return problems;
  const jsonType = response.headers['content-type']?.startsWith('application/json') ?? false;
  if (!jsonType) {
    if (c.proxyPath)
      problems.push(`error ${response.status} without a JSON body (${response.headers['content-type'] ?? 'no type'})`);
    return problems;
  }
  if (c.bodiless[index] === true) return problems;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    return [...problems, `error ${response.status} body is not JSON: ${response.body.slice(0, 80)}`];
  }
  // Before a request head parses no endpoint is known; Leeway marks such answers and guesses the shape.
  const httpPhase =
    isRecord(json) && isRecord(json.leeway) && isRecord(json.leeway.details) && json.leeway.details.phase === 'http';
  if (index === 0 && c.anthropic && !httpPhase && !isAnthropicError(json))
    problems.push(`error ${response.status} not in the Anthropic shape: ${response.body.slice(0, 120)}`);
  if (!isAnthropicError(json) && !isOpenaiError(json) && !isAdminError(json))
    problems.push(`error ${response.status} in no known shape: ${response.body.slice(0, 120)}`);
  return problems;
}

function judge(c: FuzzCase, result: RawExchange): string[] {
  const problems = result.responses.flatMap((r, i) => judgeResponse(c, r, i));
  if (result.responses.length === 0 && !c.empty) problems.push(`no HTTP response (closed: ${result.closedByServer})`);
  if (result.closedByServer && result.rest !== '')
    problems.push(`bytes that are no HTTP response: ${JSON.stringify(result.rest.slice(0, 80))}`);
  if (!c.keepAlive && !result.closedByServer) problems.push('socket not closed by the server');
  if (c.stall && !result.closedByServer && result.responses.length === 0)
    problems.push('stalled request neither answered nor closed');
  return problems;
}

async function runCase(c: FuzzCase): Promise<RawExchange> {
  const raw = await openRaw(port, { bodiless: c.bodiless });
  for (const part of c.parts) {
    raw.write(part);
    if (c.gapMs > 0) await new Promise((resolve) => setTimeout(resolve, c.gapMs));
  }
  // A keep-alive answer is complete once every pipelined request has one; otherwise wait for the close.
  return raw.finish(CASE_WAIT_MS, c.keepAlive && !c.stall ? (responses) => responses.length >= c.requests : undefined);
}

/** A row as the activity log must hold it: every field of RequestLogEntry with its type and range. */
function isWellFormedRow(row: unknown): boolean {
  if (!isRecord(row)) return false;
  const nullableCount = (v: unknown) => v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0);
  const nullableString = (v: unknown) => v === null || typeof v === 'string';
  return (
    Number.isInteger(row.id) &&
    typeof row.ts === 'number' &&
    typeof row.endpoint === 'string' &&
    typeof row.status === 'number' &&
    Number.isInteger(row.status) &&
    row.status >= 100 &&
    row.status <= 599 &&
    typeof row.stream === 'boolean' &&
    nullableString(row.model) &&
    nullableString(row.keyName) &&
    nullableString(row.errorCode) &&
    (row.connection === null || row.connection === 'a1' || row.connection === 'o1') &&
    (row.apiFormat === null || row.apiFormat === 'anthropic' || row.apiFormat === 'openai') &&
    nullableCount(row.ttfbMs) &&
    nullableCount(row.inputTokens) &&
    nullableCount(row.outputTokens) &&
    typeof row.latencyMs === 'number' &&
    Array.isArray(row.failover)
  );
}

describe('fuzz: malformed requests over raw sockets', () => {
  it(`every malformed request gets an HTTP answer in JSON, Leeway stays healthy, writes only well-formed rows and leaves no socket open (seed ${SEED})`, async () => {
    const rng = createPrng(SEED);
    const cases = Array.from({ length: CASES }, () => generateCase(rng, { good: h.key }));
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const c = cases[index];
        if (!c) continue;
        const problems = judge(c, await runCase(c));
        if (problems.length > 0) failures.push(`seed ${SEED} case ${index} [${c.label}]: ${problems.join('; ')}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(failures).toEqual([]);

    const health = await exchangeRaw(
      port,
      'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n',
      3_000,
    );
    expect(health.responses[0]?.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the request log flushes every second
    const list = await h.core.router.call('activity.list', { limit: 1000 });
    expect(list.ok).toBe(true);
    const rows: unknown[] = list.ok && Array.isArray(list.value) ? list.value : [];
    expect(rows.filter((row) => !isWellFormedRow(row))).toEqual([]);

    if (canCountSockets()) {
      const deadline = Date.now() + 3_000;
      while (openServerSockets(port) > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(openServerSockets(port)).toBe(0);
    }
  }, 60_000);
});
