import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECISION_HEADER_MAX, DECISION_MAX_ENTRIES, type RequestDecision } from '../../src-shared/domain/decision';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/**
 * Issue 24 §1: the record and the header stay bounded. A combo of 50 connections, of which the
 * key may use only the last: 49 skips and one served attempt, kept as 32 entries (the rest
 * counted), the header cut to its bound.
 */
const MODEL = 'claude-sonnet-4-5';
const COUNT = 50;
const KEY = 'lw-bounded-local-key-0123456789';
const name = (i: number) => `connection-with-a-long-name-${String(i).padStart(2, '0')}`;

let upstream: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'many' });
  const names = Array.from({ length: COUNT }, (_, i) => name(i));
  h = await startLeeway({
    connections: names.map((n) => anthropicConnection(n, upstream.url, { models: [MODEL] })),
    combos: [{ name: 'many', targets: names.map((connection) => ({ connection, model: MODEL })) }],
    keys: [{ name: 'bounded', key: KEY, allowedConnections: [name(COUNT - 1)] }],
  });
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
});

describe('decision record bounds (issue 24 §1)', () => {
  it('ISSUE-24: 50 candidates keep 32 entries in order and count the rest; the header stays within its bound', async () => {
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'many', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    expect(res.status).toBe(200);
    const header = res.headers.get('x-leeway-decision') ?? '';
    expect(header.startsWith(`served=${name(COUNT - 1)}; skipped=${name(0)}:not_allowed,`)).toBe(true);
    expect(header.length).toBeLessThanOrEqual(DECISION_HEADER_MAX);
    expect(header).toMatch(/,\.\.\.\+\d+$/);

    const reply = await fetch(`${h.url}/api/requests/last/decision`, {
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    const { decision } = (await reply.json()) as RequestDecision;
    expect(DECISION_MAX_ENTRIES).toBe(32);
    expect(decision.entries).toHaveLength(DECISION_MAX_ENTRIES);
    expect(decision.omitted).toBe(COUNT - DECISION_MAX_ENTRIES);
    expect(decision.entries.map((e) => e.connection)).toEqual(
      Array.from({ length: DECISION_MAX_ENTRIES }, (_, i) => name(i)),
    );
    expect(decision.entries.every((e) => e.kind === 'skipped' && e.reason === 'not_allowed')).toBe(true);
    expect(decision.served).toBe(name(COUNT - 1));
  });
});
