import { useEffect, useRef, useState } from 'react';
import { LoadGate } from '../../components/load-gate';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { COOLDOWNS } from '../../resources/shared-data';
import { ConnectionCooldownsPanel } from './connection-cooldowns-panel';
import { activeCooldowns, countClearable, deadlinesOf } from './cooldown-time';
import { ModelLockoutsPanel } from './model-lockouts-panel';
import { ProviderBreakersPanel } from './provider-breakers-panel';
import { RequestQueuesPanel } from './request-queues-panel';
import { useCoreNow } from './use-core-now';

/** PROD-6: everything keeping a target from serving, with live countdowns and the action that lifts it. */
export function CooldownsTab() {
  const cooldowns = useResource(COOLDOWNS);
  const clear = useAction('cooldowns.clear');
  const now = useCoreNow();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const { data: snapshot, reload } = cooldowns;

  // Recovery is lazy in the core (PROV-8): once a deadline passes, re-read so breakers show their new state.
  const reloadedFor = useRef<object | null>(null);
  const passed = snapshot ? deadlinesOf(snapshot).some((t) => t <= now) : false;
  useEffect(() => {
    if (!passed || !snapshot || reloadedFor.current === snapshot) return;
    reloadedFor.current = snapshot;
    reload();
  }, [passed, snapshot, reload]);

  const active = snapshot ? activeCooldowns(snapshot, now) : null;
  const clearable = active ? countClearable(active) : 0;
  const terminal = active ? active.connections.filter((c) => c.terminal).length : 0;

  const clearAll = async (): Promise<void> => {
    const result = await clear.run({ target: 'all' });
    if (!result.ok) return setNotice({ ok: false, text: result.error.message });
    const kept = terminal > 0 ? ` ${terminal} terminal connection${terminal === 1 ? '' : 's'} left for a reset.` : '';
    setNotice({
      ok: true,
      text: `Cleared ${result.value.cleared} item${result.value.cleared === 1 ? '' : 's'}.${kept}`,
    });
  };

  return (
    <section aria-labelledby="cooldowns-title">
      <div className="section-head">
        <div>
          <h2 id="cooldowns-title">Cooldowns</h2>
          <p className="muted small lead">
            Everything heals by itself when its timer runs out. <strong>Clear all</strong> lifts every cooldown,
            breaker, gate and model lockout now; it never clears a terminal state (banned, expired, out of credits) —
            fix the credential, then use <strong>Reset connection</strong>.
          </p>
        </div>
        <button type="button" className="button primary" disabled={clearable === 0} onClick={() => void clearAll()}>
          Clear all{clearable > 0 ? ` (${clearable})` : ''}
        </button>
      </div>
      <p className={notice?.ok === false ? 'error-text small' : 'muted small'} role="status" aria-live="polite">
        {notice?.text ?? ''}
      </p>
      <LoadGate resource={cooldowns}>
        {(snapshot) => {
          const shown = activeCooldowns(snapshot, now);
          return (
            <div className="cool-panels">
              <ConnectionCooldownsPanel rows={shown.connections} snapshotNow={snapshot.now} now={now} />
              <ProviderBreakersPanel rows={shown.providers} snapshotNow={snapshot.now} now={now} />
              <ModelLockoutsPanel rows={shown.models} now={now} />
              <RequestQueuesPanel />
            </div>
          );
        }}
      </LoadGate>
    </section>
  );
}
