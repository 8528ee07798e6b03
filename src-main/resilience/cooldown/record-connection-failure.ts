import {
  authoritativeCooldown,
  computeTransientCooldown,
  continuedBackoffLevel,
  type TransientCooldown,
} from './compute-cooldown';
import type { ConnectionFailure, FailureOutcome } from './connection-failure';
import { isTerminalStatus, type ConnectionHealth } from './connection-health';
import { profileCooldown, type CooldownContext } from './cooldown-settings';
import { EXPIRED_RETRY_MAX, REQUEST_REJECTED_BAN_THRESHOLD, expiredStep, requestRejectedStep } from './failure-streaks';
import { absorbed, cool, label, noted, terminal, TERMINAL_LABEL } from './health-writes';

function onRequestRejected(
  state: ConnectionHealth,
  next: ConnectionHealth,
  context: CooldownContext,
  now: number,
): FailureOutcome {
  const step = requestRejectedStep(state, context.settings, now);
  if (step.kind === 'absorbed') {
    return absorbed(state, step.retryAfterMs, 'Refusal from the same burst as the last counted one; not counted again');
  }
  const counted = { ...next, rejectedStreak: step.count, lastRejectedAt: now };
  if (step.kind === 'terminal') {
    return terminal(counted, 'banned', `Banned after ${step.count} consecutive request refusals`);
  }
  const cooldown = {
    cooldownMs: step.cooldownMs,
    source: 'request_rejected' as const,
    backoffLevel: state.backoffLevel,
  };
  return cool(counted, context, now, cooldown, `Request refusal ${step.count} of ${REQUEST_REJECTED_BAN_THRESHOLD}`);
}

function onExpired(
  state: ConnectionHealth,
  next: ConnectionHealth,
  context: CooldownContext,
  now: number,
): FailureOutcome {
  const step = expiredStep(state, context.settings, now);
  if (step.kind === 'absorbed') {
    return absorbed(state, step.retryAfterMs, 'Expired-credential signal before the scheduled retry; not counted');
  }
  if (step.kind === 'terminal') {
    return terminal(next, 'expired', `Credentials still rejected after ${EXPIRED_RETRY_MAX} retries`);
  }
  const counted = { ...next, expiredRetries: step.count, lastExpiredAt: now };
  const cooldown = { cooldownMs: step.cooldownMs, source: 'expired_retry' as const, backoffLevel: state.backoffLevel };
  return cool(counted, context, now, cooldown, `Credentials look expired; retry ${step.count} of ${EXPIRED_RETRY_MAX}`);
}

function describe(cooldown: TransientCooldown, fromLevel: number): string {
  if (cooldown.source === 'upstream_hint') return 'upstream reset hint';
  if (cooldown.source === 'configured') return 'configured rule';
  return `backoff level ${fromLevel} → ${cooldown.backoffLevel}`;
}

function onTransient(
  state: ConnectionHealth,
  next: ConnectionHealth,
  failure: ConnectionFailure,
  context: CooldownContext,
  now: number,
): FailureOutcome {
  const profile = profileCooldown(context.settings, context.profile);
  const running = state.rateLimitedUntil;
  // Herd guard (COOL-6): failures of requests that were already in flight when the connection
  // started cooling say nothing new. Only an authoritative length may lengthen the cooldown.
  if (running !== null && now < running) {
    const given = authoritativeCooldown(failure, profile);
    if (given === null || now + given.cooldownMs <= running) {
      return absorbed(
        state,
        running - now,
        `${label(failure)} while already cooling; cooldown and backoff level unchanged`,
      );
    }
    const why = `${label(failure)}: ${given.source === 'configured' ? 'configured rule' : 'upstream reset hint'} outlasts the running cooldown`;
    return cool(next, context, now, { ...given, backoffLevel: state.backoffLevel }, why);
  }
  const level = continuedBackoffLevel(state, profile, now);
  const cooldown = computeTransientCooldown(level, failure, profile);
  return cool(next, context, now, cooldown, `${label(failure)}: ${describe(cooldown, level)}`);
}

/**
 * Applies one classified failure to a connection (COOL-1..15). Terminal states win over anything
 * transient; ban and empty-wallet signals are final at once, expired credentials after retries,
 * request refusals after a streak; everything else cools with backoff, once per burst.
 */
export function recordConnectionFailure(
  state: ConnectionHealth,
  failure: ConnectionFailure,
  context: CooldownContext,
  now: number,
): FailureOutcome {
  if (isTerminalStatus(state.testStatus)) {
    const reason = `Connection is ${TERMINAL_LABEL[state.testStatus]}; ${label(failure)} does not change that until it is reset`;
    return { state, decision: { kind: 'already_terminal', status: state.testStatus, reason } };
  }
  const next = noted(state, failure, now);
  if (failure.terminal === 'banned' || failure.terminal === 'credits_exhausted') {
    return terminal(next, failure.terminal, `Connection is ${TERMINAL_LABEL[failure.terminal]}: ${label(failure)}`);
  }
  if (failure.terminal === 'expired') return onExpired(state, next, context, now);
  if (failure.requestRejected) return onRequestRejected(state, next, context, now);
  return onTransient(state, next, failure, context, now);
}
