import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let h: RunningLeeway | null = null;

afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

describe('a route to a round-robin combo', () => {
  it('AFF-2 issue 9 §2 §5: new sessions arriving through a `*` route are spread over the combo and each keeps its connection', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', name: 'a' });
    const b = await startFakeUpstream({ format: 'anthropic', name: 'b' });
    upstreams.push(a, b);
    h = await startLeeway({
      connections: [anthropicConnection('acct-a', a.url), anthropicConnection('acct-b', b.url)],
      combos: [
        {
          name: 'main',
          strategy: 'round-robin',
          targets: [
            { connection: 'acct-a', model: 'claude-sonnet-4-5' },
            { connection: 'acct-b', model: 'claude-sonnet-4-5' },
          ],
        },
      ],
      routes: [{ match: '*', to: 'main' }],
    });
    const ask = async (session: string, model: string) => {
      const res = await fetch(`${h?.url ?? ''}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': h?.key ?? '',
          'anthropic-version': '2023-06-01',
          'x-leeway-session': session,
        },
        body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.text();
      return res.headers.get('x-leeway-connection');
    };
    const first = new Map<string, string | null>();
    for (const s of ['s1', 's2', 's3', 's4']) first.set(s, await ask(s, 'claude-opus-4-8[1m]'));
    expect([...first.values()].sort()).toEqual(['acct-a', 'acct-a', 'acct-b', 'acct-b']);
    // Claude Code's background model goes through the same route and stays on the session's connection.
    for (const s of ['s1', 's2', 's3', 's4']) expect(await ask(s, 'claude-haiku-4-5')).toBe(first.get(s));
  });
});
