import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../src-shared/contract/errors';
import { coolingRow, lockRow, providerRow, recordingRouter, snapshotOf, T0 } from '../shell-fixtures.testkit';
import { coolingItems } from './cooling-items';
import { dispatchProbeAction, probeNotification, probeNowItem, PROBE_LABEL } from './probe-items';

const PROVIDER = 'anthropic@https://api.anthropic.com';
const snapshot = snapshotOf({
  connections: [coolingRow('a', 60_000)],
  providers: [providerRow(PROVIDER, { state: 'OPEN', retryAfterMs: 30_000 })],
  models: [lockRow('b', 'claude-opus', 90_000)],
});

describe('tray: Probe now (issue 13 §8)', () => {
  it('PROD-4: every cooling item gets a Probe now item aimed at exactly that item', () => {
    const items = coolingItems(snapshot, T0).map(probeNowItem);
    expect(items.map((i) => i.label)).toEqual([PROBE_LABEL, PROBE_LABEL, PROBE_LABEL]);
    expect(items.map((i) => i.action)).toEqual([
      { kind: 'probe', target: { target: 'connection', connection: 'a' } },
      { kind: 'probe', target: { target: 'provider', provider: PROVIDER } },
      { kind: 'probe', target: { target: 'model', key: 'anthropic:id-b:claude-opus' } },
    ]);
  });

  it('PROD-4: the action goes through the contract as cooldowns.probe', async () => {
    const router = recordingRouter({
      'cooldowns.probe': { connection: 'a', ok: true, lifted: true, message: 'a answered in 9 ms; lifted' },
    });
    const result = await dispatchProbeAction(
      { kind: 'probe', target: { target: 'connection', connection: 'a' } },
      router,
    );
    expect(router.calls).toEqual([{ method: 'cooldowns.probe', input: { target: 'connection', connection: 'a' } }]);
    expect(probeNotification(result)).toEqual({ title: 'a: back in rotation', body: 'a answered in 9 ms; lifted' });
  });

  it('PROD-4: a probe that failed or could not run says so', () => {
    expect(
      probeNotification(
        ok({ connection: 'a', ok: false, lifted: false, message: 'a still fails: Upstream answered 429' }),
      ),
    ).toEqual({ title: 'a: still cooling', body: 'a still fails: Upstream answered 429' });
    expect(probeNotification(fail('conflict', 'z needs a reset or a new credential'))).toEqual({
      title: 'Probe not sent',
      body: 'z needs a reset or a new credential',
    });
  });
});
