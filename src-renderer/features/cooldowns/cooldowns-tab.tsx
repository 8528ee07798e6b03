import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';
import { ConnectionCooldownsPanel } from './connection-cooldowns-panel';
import { activeCooldowns, countClearable, deadlinesOf } from './cooldown-time';
import { ModelLockoutsPanel } from './model-lockouts-panel';
import { ProviderBreakersPanel } from './provider-breakers-panel';
import { RequestQueuesPanel } from './request-queues-panel';
import { useCoreNow } from './use-core-now';

/** PROD-6: everything keeping a target from serving, with live countdowns and the action that lifts it. */
export function CooldownsTab() {
  const { cooldowns } = useStores();
  const state = useStore(cooldowns);
  const now = useCoreNow(cooldowns);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const snapshot = state.snapshot;

  // Recovery is lazy in the core (PROV-8): once a deadline passes, re-read so breakers show their new state.
  const reloadedFor = useRef<object | null>(null);
  const passed = snapshot ? deadlinesOf(snapshot).some((t) => t <= now) : false;
  useEffect(() => {
    if (!passed || !snapshot || reloadedFor.current === snapshot) return;
    reloadedFor.current = snapshot;
    void cooldowns.getState().load();
  }, [passed, snapshot, cooldowns]);

  const active = snapshot ? activeCooldowns(snapshot, now) : null;
  const clearable = active ? countClearable(active) : 0;
  const terminal = active ? active.connections.filter((c) => c.terminal).length : 0;

  const clearAll = async (): Promise<void> => {
    const result = await state.clear({ target: 'all' });
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
      <LoadGate state={state} onRetry={() => void state.load()}>
        {snapshot && active && (
          <div className="cool-panels">
            <ConnectionCooldownsPanel rows={active.connections} snapshotNow={snapshot.now} now={now} actions={state} />
            <ProviderBreakersPanel rows={active.providers} snapshotNow={snapshot.now} now={now} actions={state} />
            <ModelLockoutsPanel rows={active.models} now={now} actions={state} />
            <RequestQueuesPanel />
          </div>
        )}
      </LoadGate>
    </section>
  );
}
