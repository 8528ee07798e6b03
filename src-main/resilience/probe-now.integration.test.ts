import { afterEach, describe, expect, it } from 'vitest';
import { anthropicConnection } from '../testing/start-leeway';
import { askAnthropic, call, connectionRow, createScene, send } from './resilience-it.testkit';

/** "Probe now" (issue 13 §8) through a real Leeway and fake upstreams on loopback. */
const scene = createScene({ cooldownWait: false });
afterEach(() => scene.cleanup());

describe('cooldowns.probe through the real core', () => {
  it('COOL-2, issue 21 §17: the models list, then one 1-token request to the cooling upstream; lifted only once both answer', async () => {
    const first = await scene.fake('first');
    const second = await scene.fake('second');
    const h = await scene.start({
      connections: [
        anthropicConnection('first', first.url, { priority: 1 }),
        anthropicConnection('second', second.url, { priority: 2 }),
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'first', model: 'claude-sonnet-4-5' },
            { connection: 'second', model: 'claude-sonnet-4-5' },
          ],
        },
      ],
    });
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '600' } });
    expect((await send(askAnthropic(h, 'main'))).headers.get('x-leeway-connection')).toBe('second');
    expect((await connectionRow(h, 'first')).testStatus).toBe('unavailable');

    // Still limited: the probe is refused and the cooldown stays.
    first.enqueue({ kind: 'status', status: 429 });
    const refused = await call(h, 'cooldowns.probe', { target: 'connection', connection: 'first' });
    expect(refused).toMatchObject({ connection: 'first', ok: false, lifted: false });
    expect(refused.message).toMatch(/^first still fails: Rate limited \(the model list got 429: /);
    expect(first.requests.at(-1)).toMatchObject({ method: 'GET' });
    expect(first.requests.at(-1)?.path).toMatch(/\/v1\/models/);
    expect((await connectionRow(h, 'first')).retryAfterMs).toBeGreaterThan(500_000);

    // The list answers but requests are still refused (issue 21 §17): not lifted either.
    first.enqueue({ kind: 'ok' }, { kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    const stillLimited = await call(h, 'cooldowns.probe', { target: 'connection', connection: 'first' });
    expect(stillLimited).toMatchObject({ connection: 'first', ok: false, lifted: false });
    expect(stillLimited.message).toMatch(
      /^first still fails: Rate limited: retry after 30 s \(a 1-token request to claude-haiku-4-5-20251001: /,
    );
    expect(first.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/messages' });

    // Answering now: lifted, and the next request goes to it again.
    const lifted = await call(h, 'cooldowns.probe', { target: 'connection', connection: 'first' });
    expect(lifted).toMatchObject({ connection: 'first', ok: true, lifted: true });
    expect(first.requests).toHaveLength(6);
    expect((await connectionRow(h, 'first')).retryAfterMs).toBeNull();
    expect((await send(askAnthropic(h, 'main'))).headers.get('x-leeway-connection')).toBe('first');
  });
});
