import { afterEach, describe, expect, it } from 'vitest';
import { anthropicConnection } from '../../testing/start-leeway';
import { askAnthropic, createScene, send } from '../resilience-it.testkit';
import { startFakeEgress, type FakeEgress } from './fake-egress.testkit';

/** A connection's outbound proxy carries its model traffic through the real proxy. */
const scene = createScene({ cooldownWait: false });
const ways: FakeEgress[] = [];
afterEach(async () => {
  await scene.cleanup();
  await Promise.all(ways.splice(0).map((w) => w.close()));
});

describe('outbound proxy through the real proxy', () => {
  it('EGRESS-1: a model request of a proxied connection goes through its proxy; a direct one does not', async () => {
    const way = await startFakeEgress('198.51.100.7');
    ways.push(way);
    const proxied = await scene.fake('proxied');
    const direct = await scene.fake('direct');
    const h = await scene.start({
      connections: [
        anthropicConnection('proxied', proxied.url, { outboundProxyUrl: way.proxyUrlWithAuth('u', 'p') }),
        anthropicConnection('direct', direct.url),
      ],
      combos: [
        { name: 'via-proxied', targets: [{ connection: 'proxied', model: 'claude-sonnet-4-5' }] },
        { name: 'via-direct', targets: [{ connection: 'direct', model: 'claude-sonnet-4-5' }] },
      ],
    });
    expect((await send(askAnthropic(h, 'via-proxied'))).status).toBe(200);
    expect((await send(askAnthropic(h, 'via-direct'))).status).toBe(200);
    expect(proxied.requests).toHaveLength(1);
    expect(direct.requests).toHaveLength(1);
    expect(way.tunnels.map((t) => t.target)).toEqual([new URL(proxied.url).host]);
  });
});
