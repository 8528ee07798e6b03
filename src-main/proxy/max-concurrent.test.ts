import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let fakes: FakeUpstream[] = [];
let h: RunningLeeway | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

function chat(running: RunningLeeway, model: string) {
  return fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${running.key}` },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('maxConcurrent', () => {
  it('CONC-2: a second request skips a busy connection for the next target of the combo', async () => {
    const glm = await startFakeUpstream({ format: 'openai', name: 'glm' });
    const backup = await startFakeUpstream({ format: 'openai', name: 'backup' });
    fakes.push(glm, backup);
    glm.setDefault({ kind: 'slow-stream', intervalMs: 20, deltas: 20 });
    h = await startLeeway({
      connections: [
        { ...openaiConnection('glm', glm.url), models: ['glm-4.6'], maxConcurrent: 1 },
        { ...openaiConnection('backup', backup.url), models: ['glm-4.6'] },
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'glm', model: 'glm-4.6' },
            { connection: 'backup', model: 'glm-4.6' },
          ],
        },
      ],
    });
    const first = await chat(h, 'main');
    const second = await chat(h, 'main');
    expect(first.headers.get('x-leeway-connection')).toBe('glm');
    expect(second.headers.get('x-leeway-connection')).toBe('backup');
    await Promise.all([first.text(), second.text()]);
    expect(glm.requests).toHaveLength(1);
    // Once the first stream ended, its slot is free again.
    const third = await chat(h, 'main');
    await third.text();
    expect(third.headers.get('x-leeway-connection')).toBe('glm');
  });

  it('CONC-3: on the only connection, requests over the limit wait their turn instead of running in parallel', async () => {
    const glm = await startFakeUpstream({ format: 'openai', name: 'glm' });
    fakes.push(glm);
    glm.setDefault({ kind: 'slow-stream', intervalMs: 10, deltas: 15 });
    h = await startLeeway({
      connections: [{ ...openaiConnection('glm', glm.url), models: ['glm-4.6'], maxConcurrent: 1 }],
    });
    const running = h;
    let maxOpen = 0;
    const timer = setInterval(() => {
      const open = glm.requests.filter((r) => r.response && !r.response.complete).length;
      maxOpen = Math.max(maxOpen, open);
    }, 2);
    const results = await Promise.all(
      [0, 1, 2].map(() => chat(running, 'glm-4.6').then(async (r) => ({ status: r.status, text: await r.text() }))),
    );
    clearInterval(timer);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(glm.requests).toHaveLength(3);
    expect(maxOpen).toBe(1);
  });
});
