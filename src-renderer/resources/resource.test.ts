import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../src-shared/contract/errors';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import { createFakeCore } from '../testing/fake-core';
import { fakeConnection } from '../testing/fake-fixtures';
import { createResource } from './resource';
import { CLAUDE_STATUS, CONNECTIONS } from './shared-data';

afterEach(() => vi.useRealTimers());

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const status = (connectionId: string, utilization: number): ClaudeConnectionStatus => ({
  connectionId,
  usage: { fiveHour: { utilization, resetsAtSeconds: 1_700_001_000 }, windows: {}, observedAt: 1_700_000_000_000 },
  lane: { kind: 'idle' },
  lastReset: null,
  lastVia: null,
});
const countOf = (fake: ReturnType<typeof createFakeCore>, method: string) =>
  fake.calls.filter((c) => c.method === method).length;

describe('createResource', () => {
  it('PROD-8 reads when the first reader comes, then follows the events that carry the datum', async () => {
    const fake = createFakeCore({ connections: [fakeConnection('a')] });
    const connections = createResource(fake.client, CONNECTIONS);
    expect(countOf(fake, 'connections.list')).toBe(0);
    const off = connections.subscribe(() => {});
    await settle();
    expect(connections.getSnapshot()).toMatchObject({ loading: false, error: null });
    expect(connections.getSnapshot().data?.map((c) => c.name)).toEqual(['a']);
    fake.emit({ type: 'connections.changed', payload: { connections: [fakeConnection('a'), fakeConnection('b')] } });
    expect(connections.getSnapshot().data?.map((c) => c.name)).toEqual(['a', 'b']);

    // The last reader gone, events no longer reach it; the datum is kept for the next reader.
    off();
    fake.emit({ type: 'connections.changed', payload: { connections: [] } });
    expect(connections.getSnapshot().data).toHaveLength(2);
    expect(connections.active()).toBe(false);
  });

  it('PROD-8 PROD-5 drops a snapshot that an event overtook', async () => {
    const fake = createFakeCore({ claude: [status('a', 0.1)] });
    const claude = createResource(fake.client, CLAUDE_STATUS);
    claude.subscribe(() => {});
    // The first read is in flight; an event with newer data lands before it answers.
    fake.emit({ type: 'claude.changed', payload: { status: [status('a', 0.9)] } });
    await settle();
    expect(claude.getSnapshot().data).toEqual([status('a', 0.9)]);
  });

  it('shares one read among its readers and asks once more, never more, when asked while reading', async () => {
    const fake = createFakeCore();
    const connections = createResource(fake.client, CONNECTIONS);
    connections.subscribe(() => {});
    connections.subscribe(() => {});
    const reloads = [connections.reload(), connections.reload(), connections.reload()];
    await Promise.all(reloads);
    expect(countOf(fake, 'connections.list')).toBe(2);
  });

  it('PROD-8 keeps the data and reports a failed read, and reads again after an event-stream gap', async () => {
    const fake = createFakeCore({ connections: [fakeConnection('a')] });
    let failing = false;
    const call = fake.transport.call;
    fake.transport.call = (method, input) =>
      failing ? Promise.resolve(fail('internal_error', 'db locked')) : call(method, input);
    const connections = createResource(fake.client, CONNECTIONS);
    connections.subscribe(() => {});
    await settle();
    failing = true;
    await connections.reload();
    expect(connections.getSnapshot()).toMatchObject({ error: { message: 'db locked' } });
    expect(connections.getSnapshot().data).toHaveLength(1);
    failing = false;
    fake.reconnect();
    await settle();
    expect(connections.getSnapshot().error).toBeNull();
  });

  it('polls while read, and stops when the last reader leaves', async () => {
    vi.useFakeTimers();
    const fake = createFakeCore();
    const queues = createResource(fake.client, { method: 'queues.list', pollMs: 1_000 });
    const off = queues.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(2_500);
    expect(countOf(fake, 'queues.list')).toBe(3);
    off();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(countOf(fake, 'queues.list')).toBe(3);
  });

  it('a throttled datum re-reads after an event at once when its last read is old enough, later otherwise; leaving cancels it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const fake = createFakeCore({}, () => Date.now());
    const spec = { method: 'activity.summary', events: { 'activity.request': 'reload' }, throttleMs: 2_000 } as const;
    const summary = createResource(fake.client, spec);
    const off = summary.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    fake.recordRequest({});
    fake.recordRequest({});
    await vi.advanceTimersByTimeAsync(1_999);
    expect(countOf(fake, 'activity.summary')).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(countOf(fake, 'activity.summary')).toBe(2);
    expect(summary.getSnapshot().data?.requestsToday).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    fake.recordRequest({});
    await vi.advanceTimersByTimeAsync(0);
    expect(countOf(fake, 'activity.summary')).toBe(3);
    fake.recordRequest({});
    off();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(countOf(fake, 'activity.summary')).toBe(3);
  });
});
