import type { ProbeTarget } from '../../src-shared/contract/methods';
import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import type { ConnectionCooldownRow, CooldownClear, CooldownSnapshot } from '../../src-shared/domain/cooldown';
import { NO_MODELS_PATH } from '../kernel/provider-adapter';

/**
 * "Probe now" (issue 13 §8), decided here and run by the `cooldowns.probe` handler. A probe sends
 * one cheap request — the upstream's model list with the connection's own credential, which costs
 * no tokens (the editor's Test) — and lifts the item only when the upstream answers it. The answer
 * is not fed to the engines: a lifted connection that still fails cools again on its next request.
 * Terminal states are never lifted here (COOL-10); they take a reset or a new credential.
 */

/** Who answers for a target: the connection asked, and the model a lockout is about. */
export type ProbeSubject =
  | { ok: true; connection: string; model: string | null }
  | { ok: false; code: 'not_found' | 'conflict'; message: string };

const isTerminal = (row: ConnectionCooldownRow): boolean => row.terminal;

/**
 * The connection to ask: the item's own for a connection or a model lockout; for a provider's
 * breaker the first of its connections that is enabled and not terminal, in the snapshot's order.
 */
export function probeSubject(
  snapshot: CooldownSnapshot,
  target: ProbeTarget,
  enabled: (connectionName: string) => boolean,
): ProbeSubject {
  const terminalText = (name: string): ProbeSubject => ({
    ok: false,
    code: 'conflict',
    message: `${name} needs a reset or a new credential; a probe cannot lift that`,
  });
  switch (target.target) {
    case 'connection': {
      const row = snapshot.connections.find((c) => c.name === target.connection || c.id === target.connection);
      if (!row) return { ok: false, code: 'not_found', message: `No connection named "${target.connection}"` };
      return isTerminal(row) ? terminalText(row.name) : { ok: true, connection: row.name, model: null };
    }
    case 'model': {
      const lock = snapshot.models.find((m) => m.key === target.key);
      if (!lock) return { ok: false, code: 'not_found', message: 'That model lockout has already ended' };
      const row = snapshot.connections.find((c) => c.id === lock.connectionId);
      if (row && isTerminal(row)) return terminalText(row.name);
      return { ok: true, connection: lock.connection, model: lock.model };
    }
    case 'provider': {
      if (!snapshot.providers.some((p) => p.provider === target.provider)) {
        return { ok: false, code: 'not_found', message: `No breaker for provider "${target.provider}"` };
      }
      const row = snapshot.connections.find((c) => c.provider === target.provider && !isTerminal(c) && enabled(c.name));
      if (!row) {
        return {
          ok: false,
          code: 'conflict',
          message: 'No enabled connection of this provider can be asked (each is off or needs a reset)',
        };
      }
      return { ok: true, connection: row.name, model: null };
    }
  }
}

export interface ProbeVerdict {
  ok: boolean;
  lift: boolean;
  message: string;
}

/**
 * What the probe's answer means. A success lifts the item. A kind with no model list to ask
 * (nothing cheaper than a real request exists) is lifted too, so the next request is the probe.
 * A refusal (429, 401 …) or an unreachable upstream keeps it, with the upstream's reason.
 */
export function probeVerdict(
  check: ConnectionTestResult,
  subject: { connection: string; model: string | null },
): ProbeVerdict {
  if (check.ok) {
    const unlisted =
      subject.model !== null && check.models.length > 0 && !check.models.includes(subject.model)
        ? ` (its model list does not name ${subject.model})`
        : '';
    return {
      ok: true,
      lift: true,
      message: `${subject.connection} answered in ${check.latencyMs} ms; lifted${unlisted}`,
    };
  }
  if (check.status === null && check.message === NO_MODELS_PATH) {
    return {
      ok: false,
      lift: true,
      message: `${subject.connection} has no model list to ask; lifted, so the next request is the probe`,
    };
  }
  return { ok: false, lift: false, message: `${subject.connection} still fails: ${check.message}` };
}

/** The clear that lifts exactly the probed item (the same one the tray's Clear would send). */
export function liftFor(target: ProbeTarget, subject: { connection: string }): CooldownClear {
  switch (target.target) {
    case 'connection':
      return { target: 'connection', connection: subject.connection };
    case 'provider':
      return { target: 'provider', provider: target.provider };
    case 'model':
      return { target: 'model', key: target.key };
  }
}
