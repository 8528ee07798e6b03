import { afterEach, describe, expect, it } from 'vitest';
import { reservePort } from '../fake-upstream';
import { runConformance } from './conformance';
import { startManglingGateway, type ManglingGateway } from './fakes/mangling-gateway';
import type { Mangle } from './fakes/mangles';
import { parseOptions } from './options';
import type { Row } from './checks/types';

/*
 * Issue 23 §4: the suite against a gateway that is not Leeway (fakes/mangling-gateway.ts), set up
 * the way a user sets up any gateway: the suite's upstream on a fixed port (--upstream-port), the
 * gateway pointed at it. Correct, it passes every row; breaking one item at a time fails exactly
 * the rows that check that item, and no other (the whole suite runs each time).
 */
const TIMEOUT_MS = 60_000;
let gateways: ManglingGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  gateways = [];
});

async function against(mangles: Mangle[]): Promise<Row[]> {
  const port = await reservePort();
  const gateway = await startManglingGateway(`http://127.0.0.1:${port}`, new Set(mangles));
  gateways.push(gateway);
  const parsed = parseOptions([
    '--url',
    gateway.url,
    '--key',
    'any-key-the-gateway-ignores',
    '--upstream-port',
    String(port),
  ]);
  if (!parsed.ok) throw new Error(parsed.error);
  return (await runConformance(parsed.value, () => undefined)).rows;
}

const summary = (rows: Row[]) => rows.map((r) => `${r.id}: ${r.result} (${r.evidence})`);

/** Every row as it should read: the named ones failed, the Gemini ones n-a, the rest passed. */
const expected = (rows: Row[], failing: readonly string[]) =>
  rows.map((r) => {
    const result = failing.includes(r.id) ? 'fail' : r.client.startsWith('Gemini') ? 'n-a' : 'pass';
    return `${r.id}: ${result} (${r.evidence})`;
  });

/** Each way of breaking a gateway, and the rows it must fail. */
const BREAKS: [Mangle, string[]][] = [
  ['signature', ['thinking-json', 'thinking-stream', 'thinking-claude-code', 'reasoning-codex']],
  [
    'fragments',
    ['tool-fragments-anthropic', 'tool-fragments-openai', 'tool-fragments-claude-code', 'tool-fragments-codex'],
  ],
  ['keepalive', ['keepalive-anthropic', 'keepalive-openai']],
  ['count-tokens', ['count-tokens']],
  ['models-redirect', ['models-anthropic', 'models-openai', 'discovery-claude-code']],
  // Claude Code gives up on a model list that slow too.
  ['models-slow', ['models-anthropic', 'models-openai', 'discovery-claude-code']],
  ['head', ['head-root']],
  ['beta', ['beta-sdk', 'beta-claude-code']],
  [
    'errors',
    ['error-4xx-anthropic', 'error-5xx-anthropic', 'error-4xx-openai', 'error-5xx-openai', 'error-claude-code'],
  ],
  ['sessions', ['session-claude-code', 'session-codex']],
  ['usage', ['usage-stream-anthropic', 'usage-stream-openai']],
  ['stop-reasons', ['stop-reasons-anthropic', 'stop-reasons-openai']],
];

describe('conformance suite against a gateway that is not Leeway (issue 23 §4)', () => {
  it(
    'issue 23 §4: a correct pass-through gateway passes every row but the Gemini ones (n-a: no /v1beta)',
    async () => {
      const rows = await against([]);
      expect(summary(rows)).toEqual(expected(rows, []));
    },
    TIMEOUT_MS,
  );

  it.each(BREAKS)(
    'issue 23 §4: a gateway that breaks "%s" fails exactly those rows',
    async (mangle, ids) => {
      const rows = await against([mangle]);
      expect(summary(rows)).toEqual(expected(rows, ids));
    },
    TIMEOUT_MS,
  );
});
