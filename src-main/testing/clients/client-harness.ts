/** Lifecycle for client tests: fakes and a Leeway started per test, all stopped after it. */
import { afterEach } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import type { FakeUpstreamOptions } from '../fake-upstream-types';
import { startLeeway, type RunningLeeway } from '../start-leeway';

export interface ClientHarness {
  upstream(options: FakeUpstreamOptions): Promise<FakeUpstream>;
  leeway(config: Record<string, unknown>): Promise<RunningLeeway>;
}

/** Call once at the top of a test file; registers the afterEach that stops everything started. */
export function useClientHarness(): ClientHarness {
  let upstreams: FakeUpstream[] = [];
  let running: RunningLeeway[] = [];
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
    async leeway(config) {
      const leeway = await startLeeway(config);
      running.push(leeway);
      return leeway;
    },
  };
}

/** The entries of `activity.list`, newest first. */
export async function activity(leeway: RunningLeeway): Promise<Record<string, unknown>[]> {
  const list = await leeway.core.router.call('activity.list', {});
  if (!list.ok) throw new Error(`activity.list failed: ${list.error.message}`);
  return list.value as Record<string, unknown>[];
}
