import { afterEach, describe, expect, it } from 'vitest';
import { anthropicConnection } from '../testing/start-leeway';
import { askAnthropic, connectionRow, createScene, send } from './resilience-it.testkit';

/** What a connection's stored last error says (COOL-2, issue 8), through the real proxy and a restart. */
const scene = createScene();
afterEach(() => scene.cleanup());

describe('the last error of a connection', () => {
  it('ISSUE-8: names the connection, never the upstream host or URL, and stays so after a restart', async () => {
    const upstream = await scene.fake('up');
    const h = await scene.start({
      connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] })],
    });
    const { hostname, port } = new URL(upstream.url);
    upstream.enqueue({
      kind: 'status',
      status: 429,
      // Longer than the cooldown wait's 90 s (CONC-8): the 429 is the answer, not a hold.
      headers: { 'retry-after': '180' },
      body: {
        type: 'error',
        error: { type: 'rate_limit_error', message: `Too many requests at ${upstream.url}/v1/messages, slow down` },
      },
    });
    expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(429);

    const check = (lastError: string | null) => {
      expect(lastError).toMatch(/^a1: 429 rate_limit_exceeded: /);
      expect(lastError).toContain('slow down');
      expect(lastError).not.toContain(hostname);
      expect(lastError).not.toContain(port);
    };
    check((await connectionRow(h, 'a1')).lastError);
    // The stored row, read back by a fresh process, says the same.
    check((await connectionRow(await scene.restart(), 'a1')).lastError);
  });
});
