import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { requestLine } from '../observability/request-line';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let fake: FakeUpstream | null = null;
let h: RunningLeeway | null = null;
afterEach(async () => {
  await h?.stop();
  await fake?.close();
  h = null;
  fake = null;
});

function chat(running: RunningLeeway) {
  return fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${running.key}` },
    body: JSON.stringify({ model: 'glm-4.6', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('the queued mark (issue 13 §1)', () => {
  it('QUEUE-1: a request that waited for a maxConcurrent slot says for how long, in its row and its log line', async () => {
    fake = await startFakeUpstream({ format: 'openai', name: 'glm' });
    fake.setDefault({ kind: 'slow-stream', intervalMs: 20, deltas: 15 });
    h = await startLeeway({
      connections: [{ ...openaiConnection('glm', fake.url), models: ['glm-4.6'], maxConcurrent: 1 }],
    });
    const running = h;
    const answers = await Promise.all([chat(running), chat(running)]);
    await Promise.all(answers.map((a) => a.text()));
    const list = await running.core.router.call('activity.list', { limit: 10 });
    const rows = (list.ok ? list.value : []) as RequestLogEntry[];
    expect(rows).toHaveLength(2);
    const waited = rows.filter((r) => (r.queuedMs ?? 0) > 0);
    const direct = rows.filter((r) => r.queuedMs === null || r.queuedMs === undefined);
    // One ran at once, the other waited roughly one whole stream (15 deltas × 20 ms) for the slot.
    expect(direct).toHaveLength(1);
    expect(waited).toHaveLength(1);
    expect(waited[0]?.queuedMs).toBeGreaterThanOrEqual(150);
    const row = waited[0];
    if (row) expect(requestLine(row)).toMatch(/queued \d/);
    if (direct[0]) expect(requestLine(direct[0])).not.toContain('queued');
  });
});
