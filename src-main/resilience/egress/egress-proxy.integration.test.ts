import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { createUpstreamPools, type UpstreamPools } from '../../providers/upstream-pools';
import { probeEgressIp, parseProbeBody } from './egress-probe';
import { PROBE_URL, startFakeEgress, type FakeEgress } from './fake-egress.testkit';

/** The per-connection outbound proxy (undici ProxyAgent) and the IP probe, over real loopback HTTP. */
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function egress(ip: string): Promise<FakeEgress> {
  const e = await startFakeEgress(ip);
  open.push(e);
  return e;
}
async function upstream(): Promise<FakeUpstream> {
  const u = await startFakeUpstream({ format: 'anthropic', name: 'up' });
  open.push(u);
  return u;
}
function pools(): UpstreamPools {
  const p = createUpstreamPools();
  open.push(p);
  return p;
}

const messageRequest = {
  method: 'POST' as const,
  path: '/v1/messages',
  headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-key', 'anthropic-version': '2023-06-01' },
  body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
};

describe('outbound proxy per connection', () => {
  it("EGRESS-1: a connection's outbound proxy URL routes its traffic through that proxy (CONNECT, credentials from the userinfo)", async () => {
    const way = await egress('198.51.100.1');
    const up = await upstream();
    const res = await pools().forOrigin(up.url, way.proxyUrlWithAuth('alice', 's3cret')).request(messageRequest);
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect(up.requests).toHaveLength(1);
    expect(way.tunnels).toEqual([
      {
        target: new URL(up.url).host,
        proxyAuthorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
      },
    ]);
  });

  it('EGRESS-1: without a proxy URL the same origin is reached directly, and two proxies never share tunnels', async () => {
    const one = await egress('198.51.100.1');
    const two = await egress('198.51.100.2');
    const up = await upstream();
    const p = pools();
    for (const proxy of [null, one.proxyUrl, two.proxyUrl]) {
      const res = await p.forOrigin(up.url, proxy).request(messageRequest);
      await res.body.text();
    }
    expect(up.requests).toHaveLength(3);
    expect(one.tunnels).toHaveLength(1);
    expect(two.tunnels).toHaveLength(1);
  });
});

describe('egress IP probe', () => {
  it('EGRESS-4: the probe asks through the connection proxy and reads the IP that way out answers', async () => {
    const one = await egress('198.51.100.1');
    const two = await egress('203.0.113.9');
    expect(await probeEgressIp(PROBE_URL, one.proxyUrl, 5_000)).toEqual({ ok: true, value: '198.51.100.1' });
    expect(await probeEgressIp(PROBE_URL, two.proxyUrl, 5_000)).toEqual({ ok: true, value: '203.0.113.9' });
  });

  it('EGRESS-4: an unreachable probe is a failure as data, never a throw; bodies without an IP read as none', async () => {
    const result = await probeEgressIp('http://127.0.0.1:9/ip', null, 2_000);
    expect(result.ok).toBe(false);
    expect(parseProbeBody('{"ip":"2001:db8::1"}')).toBe('2001:db8::1');
    expect(parseProbeBody('<html>hello</html>')).toBeNull();
  });
});
