import type { Logger } from 'pino';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';

/** A cooldown or token lifetime as a person reads it: `850 ms`, `30 s`, `12 min`, `8.0 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 2 * 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

interface ConnectionMark {
  cooling: boolean;
  until: number | null;
  status: string;
}

/**
 * The state-change lines (issue 13 §1): each `cooldowns.changed` snapshot is compared with the last
 * one seen, and only what changed is told — cooldown set / cleared, a connection turning terminal
 * or reset, breaker open / half-open / closed, model lockout set / cleared. A quota hold is told when
 * a key is first refused by its pool and when it is served again. Messages carry names and reasons,
 * never credentials (the logger's redactor runs over them anyway).
 */
export function createStateLines(logger: Logger, now: () => number) {
  let connections = new Map<string, ConnectionMark>();
  let breakers = new Map<string, string>();
  let lockouts = new Set<string>();
  const heldKeys = new Set<string>();

  const remember = (s: CooldownSnapshot) => {
    connections = new Map(
      s.connections.map((c) => [
        c.id,
        { cooling: c.retryAfterMs !== null, until: c.rateLimitedUntil, status: c.testStatus },
      ]),
    );
    breakers = new Map(s.providers.map((p) => [p.provider, p.state]));
    lockouts = new Set(s.models.map((m) => m.key));
  };

  const tellConnections = (s: CooldownSnapshot) => {
    for (const c of s.connections) {
      const before = connections.get(c.id);
      const cooling = c.retryAfterMs !== null;
      const why = c.lastErrorType ?? c.errorCode ?? 'error';
      // A cooldown whose time ran out changed no snapshot (nothing is emitted for an expiry), so the
      // remembered mark may still say cooling: a new cooldown after it is news all the same.
      const wasCooling = before?.cooling === true && (before.until === null || before.until > s.now);
      if (cooling && !wasCooling) {
        logger.warn(
          {
            event: 'cooldown',
            connection: c.name,
            retryAfterMs: c.retryAfterMs,
            backoffLevel: c.backoffLevel,
            // The file keeps the upstream's words (already redacted by the classifier, and again by the logger).
            lastError: c.lastError,
          },
          `cooldown set: ${c.name} for ${formatDuration(c.retryAfterMs ?? 0)} (${why}, backoff level ${c.backoffLevel})`,
        );
      } else if (!cooling && before?.cooling && before.until !== null && before.until > s.now) {
        // Cooling before and its time not yet up: someone cleared it (a cooldown that ran out is silent).
        logger.info({ event: 'cooldown', connection: c.name }, `cooldown cleared: ${c.name}`);
      }
      if (before !== undefined && before.status !== c.testStatus) {
        if (c.terminal) {
          logger.error(
            { event: 'connection', connection: c.name, status: c.testStatus },
            `connection ${c.name} is ${c.testStatus}: it needs a reset or a new credential`,
          );
        } else if (before.status !== 'active' && c.testStatus === 'active') {
          logger.info(
            { event: 'connection', connection: c.name, status: c.testStatus },
            `connection ${c.name} is active again`,
          );
        }
      }
    }
  };

  const tellBreakers = (s: CooldownSnapshot) => {
    for (const p of s.providers) {
      const before = breakers.get(p.provider) ?? 'CLOSED';
      if (before === p.state) continue;
      const fields = { event: 'breaker', provider: p.provider, state: p.state, failures: p.failureCount };
      if (p.state === 'OPEN') {
        const retry = p.retryAfterMs === null ? '' : `, retry in ${formatDuration(p.retryAfterMs)}`;
        logger.warn(fields, `breaker open: ${p.provider} after ${p.failureCount} failures${retry}`);
      } else if (p.state === 'CLOSED') logger.info(fields, `breaker closed: ${p.provider}`);
      else logger.info(fields, `breaker ${p.state.toLowerCase().replace('_', '-')}: ${p.provider}`);
    }
  };

  const tellLockouts = (s: CooldownSnapshot) => {
    const current = new Set<string>();
    for (const m of s.models) {
      current.add(m.key);
      if (lockouts.has(m.key)) continue;
      logger.warn(
        { event: 'lockout', connection: m.connection, model: m.model, reason: m.reason, expiresAt: m.expiresAt },
        `model lockout: ${m.connection} · ${m.model} for ${formatDuration(Math.max(0, m.expiresAt - s.now))} (${m.reason})`,
      );
    }
    for (const key of lockouts) {
      if (!current.has(key)) logger.info({ event: 'lockout', key }, `model lockout ended: ${key}`);
    }
  };

  return {
    /** The state at start: what is already cooling is not news. */
    baseline(snapshot: CooldownSnapshot): void {
      remember(snapshot);
    },
    snapshot(s: CooldownSnapshot): void {
      tellConnections(s);
      tellBreakers(s);
      tellLockouts(s);
      remember(s);
    },
    /** Per request: two comparisons unless a quota refusal or a held key is involved. */
    request(entry: NewRequestLogEntry): void {
      const key = entry.keyName;
      if (key === null) return;
      if (entry.errorCode === 'quota_exceeded') {
        if (heldKeys.has(key)) return;
        heldKeys.add(key);
        logger.warn({ event: 'quota', key, model: entry.model }, `quota hold: key ${key} is over its pool share`);
      } else if (heldKeys.size > 0 && entry.status < 400 && heldKeys.delete(key)) {
        logger.info({ event: 'quota', key }, `quota hold lifted: key ${key} is served again`);
      }
    },
    /** A Claude subscription token was renewed (stored), by expiry or after a 401. */
    tokenRefreshed(connection: string, expiresAt: number | undefined): void {
      const until = expiresAt === undefined ? '' : `, valid for ${formatDuration(Math.max(0, expiresAt - now()))}`;
      logger.info({ event: 'token', connection }, `token refreshed: ${connection}${until}`);
    },
  };
}
