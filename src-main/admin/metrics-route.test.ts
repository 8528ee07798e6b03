import { afterEach, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '../observability/prometheus-text.testkit';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;
afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function setUp() {
  const first = await startFakeUpstream({ format: 'anthropic', name: 'first' });
  const second = await startFakeUpstream({ format: 'anthropic', name: 'second' });
  upstreams.push(first, second);
  leeway = await startLeeway({
    connections: [
      anthropicConnection('primary', first.url, { priority: 1 }),
      anthropicConnection('backup', second.url, { priority: 2 }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'primary', model: 'claude-haiku-4-5' },
          { connection: 'backup', model: 'claude-haiku-4-5' },
        ],
      },
    ],
    pools: [
      {
        name: 'team',
        connection: 'backup',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 100 }],
        allocations: [{ key: 'test', weight: 100, policy: 'soft' }],
      },
    ],
  });
  return { first, second, h: leeway };
}

const ask = (h: RunningLeeway, model: string) =>
  fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });

const scrape = async (
  h: RunningLeeway,
  headers: Record<string, string> = { authorization: `Bearer ${h.adminToken}` },
) => fetch(`${h.url}/metrics`, { headers });

describe('GET /metrics on the admin door', () => {
  it('ISSUE-13: refuses without the admin token (401) and with a wrong one; answers Prometheus text with it', async () => {
    const { h } = await setUp();
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      { cookie: 'leeway_token=nope' },
    ];
    for (const headers of attempts) {
      const refused = await scrape(h, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect(await refused.text()).not.toContain('leeway_requests_total');
    }
    const res = await scrape(h);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(() => parsePrometheusText('bogus line')).toThrow();
    expect(parsePrometheusText(await res.text())).toEqual(expect.any(Array));
    const post = await fetch(`${h.url}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    expect(post.status).toBe(405);
  });

  it('ISSUE-13: counts a known number of requests by connection and status, with the failover, cooldown and quota', async () => {
    const { first, h } = await setUp();
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    // 1: primary 429 → backup; 2, 3: primary cools, backup serves; 4: a model no connection lists.
    for (let i = 0; i < 3; i++) expect((await ask(h, 'main')).status).toBe(200);
    expect((await ask(h, 'claude-unlisted-1')).status).toBe(200);

    await expect
      .poll(async () => {
        const s = parsePrometheusText(await (await scrape(h)).text());
        return sampleValue(s, 'leeway_quota_key_consumed', { pool: 'team', key: 'test', unit: 'requests' });
      })
      .toBe(4);
    const s = parsePrometheusText(await (await scrape(h)).text());
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'backup', model: 'main', status: '200' })).toBe(3);
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'backup', model: 'other', status: '200' })).toBe(1);
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'primary' })).toBeUndefined();
    expect(sampleValue(s, 'leeway_failovers_total', { connection: 'primary' })).toBe(1);
    expect(sampleValue(s, 'leeway_request_duration_seconds_count', { connection: 'backup' })).toBe(4);
    expect(sampleValue(s, 'leeway_request_ttfb_seconds_count', { connection: 'backup' })).toBe(4);
    expect(sampleValue(s, 'leeway_cooldown_active', { connection: 'primary' })).toBe(1);
    expect(sampleValue(s, 'leeway_cooldown_active', { connection: 'backup' })).toBe(0);
    // One breaker per upstream origin, both closed: a single 429 opens none.
    const closed = s.filter((x) => x.name === 'leeway_breaker_state' && x.labels.state === 'CLOSED');
    expect(closed.map((x) => x.value)).toEqual([1, 1]);
    expect(sampleValue(s, 'leeway_quota_limit', { pool: 'team', unit: 'requests', window: 'hourly' })).toBe(100);
  });
});
