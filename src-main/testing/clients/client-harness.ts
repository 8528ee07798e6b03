/** Lifecycle for client tests: fakes and a Headroom started per test, all stopped after it. */
import { afterEach } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import type { FakeUpstreamOptions } from '../fake-upstream-types';
import { startHeadroom, type RunningHeadroom } from '../start-headroom';

export interface ClientHarness {
  upstream(options: FakeUpstreamOptions): Promise<FakeUpstream>;
  headroom(config: Record<string, unknown>): Promise<RunningHeadroom>;
}

/** Call once at the top of a test file; registers the afterEach that stops everything started. */
export function useClientHarness(): ClientHarness {
  let upstreams: FakeUpstream[] = [];
  let running: RunningHeadroom[] = [];
  afterEach(async () => {
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    await Promise.all(upstreams.map((u) => u.close()));
    upstreams = [];
  });
  return {
    async upstream(options) {
      const upstream = await startFakeUpstream(options);
      upstreams.push(upstream);
      return upstream;
    },
    async headroom(config) {
      const headroom = await startHeadroom(config);
      running.push(headroom);
      return headroom;
    },
  };
}

/** The entries of `activity.list`, newest first. */
export async function activity(headroom: RunningHeadroom): Promise<Record<string, unknown>[]> {
  const list = await headroom.core.router.call('activity.list', {});
  if (!list.ok) throw new Error(`activity.list failed: ${list.error.message}`);
  return list.value as Record<string, unknown>[];
}
