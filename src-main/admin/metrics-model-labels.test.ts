import { afterEach, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '../observability/prometheus-text.testkit';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/*
 * Issue 21 §17: Claude Code's requests to a connection that serves any model were all counted under
 * model="other" in /metrics. A model id the upstream listed is its own label; any other id of a known
 * family (the price table's: claude-opus, claude-sonnet, gpt-4o …) is labelled by the family, so the
 * label set stays bounded whatever clients send.
 */
let upstream: FakeUpstream | null = null;
let leeway: RunningLeeway | null = null;
afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await upstream?.close();
  upstream = null;
});

const ask = async (h: RunningLeeway, model: string): Promise<number> => {
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
};

const scrape = async (h: RunningLeeway) => {
  const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.adminToken}` } });
  return parsePrometheusText(await res.text());
};

describe('the model label of /metrics (issue 21 §17)', () => {
  it('issue 21 §17: Claude models on an any-model connection are labelled by their listed id, else by family, never "other"', async () => {
    upstream = await startFakeUpstream({
      format: 'anthropic',
      models: ['claude-opus-4-8', 'claude-haiku-4-5-20251001'],
    });
    leeway = await startLeeway({ connections: [anthropicConnection('a1', upstream.url, { models: [] })] });
    // "Test" asks the upstream for its list, as discovery does on start: the ids become known names.
    expect(await leeway.core.router.call('connections.test', { name: 'a1' })).toMatchObject({ ok: true });
    const models = ['claude-opus-4-8', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929', 'made-up-model'];
    for (const model of models) expect(await ask(leeway, model)).toBe(200);

    const samples = await scrape(leeway);
    const count = (model: string) =>
      sampleValue(samples, 'leeway_requests_total', { connection: 'a1', model, status: '200' });
    expect(count('claude-opus-4-8')).toBe(1);
    expect(count('claude-haiku-4-5-20251001')).toBe(1);
    // Not listed: its family, from the same table the usd quota prices by.
    expect(count('claude-sonnet')).toBe(1);
    // Unknown to the list and the table: still bounded.
    expect(count('other')).toBe(1);
  });
});
