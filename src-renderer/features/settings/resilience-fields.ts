import {
  BREAKER_RANGES as B,
  COOLDOWN_RANGES as C,
  WINDOW_GATE_RANGES as W,
} from '../../../src-shared/domain/resilience-ranges';
import type { SectionSpec } from './field-spec';
import { MODEL_LOCKOUT_SECTION } from './model-lockout-fields';
import { QUOTA_SHARE_CONCURRENCY_SECTION } from './quota-share-fields';

// Ranges come from the shared table the core's schemas are built from; resilience-ranges.test.ts checks them against the schemas.

/** COOL-3..COOL-9: the per-connection cooldown ladder; the core clamps values into range. */
const cooldown: SectionSpec = {
  id: 'cooldown',
  title: 'Connection cooldown',
  intro:
    'How long one failing connection sits out. Each consecutive failure doubles the wait (base × 2^level) up to the cap; the provider’s other connections keep serving.',
  outOfRange: 'clamped',
  fields: [
    {
      path: 'cooldown.requestRejectedCooldownMs',
      label: 'First refusal cooldown',
      kind: 'ms',
      unit: 'min',
      ...C.requestRejectedCooldownMs,
      help: 'After an upstream refuses a request (e.g. “Request not allowed”).',
    },
    {
      path: 'cooldown.requestRejectedRepeatCooldownMs',
      label: 'Repeated refusal cooldown',
      kind: 'ms',
      unit: 'min',
      ...C.requestRejectedRepeatCooldownMs,
      help: 'Each later refusal; the third in a row bans the connection.',
    },
    {
      path: 'cooldown.requestRejectedWindowMs',
      label: 'Refusal streak window',
      kind: 'ms',
      unit: 'h',
      ...C.requestRejectedWindowMs,
      help: 'A refusal older than this no longer continues the streak.',
    },
    {
      path: 'cooldown.expiredRetryBaseMs',
      label: 'Expired credential retry',
      kind: 'ms',
      unit: 's',
      ...C.expiredRetryBaseMs,
      help: 'First wait before re-trying an expired credential; doubles for each of up to 3 tries.',
    },
  ],
  profileRows: [
    {
      pattern: 'cooldown.{profile}.baseCooldownMs',
      label: 'Base cooldown',
      kind: 'ms',
      unit: 's',
      ...C.profile.baseCooldownMs,
      help: 'The first wait.',
    },
    {
      pattern: 'cooldown.{profile}.maxBackoffSteps',
      label: 'Backoff steps',
      kind: 'int',
      ...C.profile.maxBackoffSteps,
      help: 'The exponent stops growing here.',
    },
    {
      pattern: 'cooldown.{profile}.maxCooldownMs',
      label: 'Longest cooldown',
      kind: 'ms',
      unit: 'min',
      ...C.profile.maxCooldownMs,
      help: 'Never below the base.',
    },
    {
      pattern: 'cooldown.{profile}.backoffResetMs',
      label: 'Ladder resets after',
      kind: 'ms',
      unit: 'min',
      ...C.profile.backoffResetMs,
      help: 'Quiet time after which the next failure starts at level 0.',
    },
    {
      pattern: 'cooldown.{profile}.useUpstreamRetryHints',
      label: 'Trust upstream retry hints',
      kind: 'bool',
      help: 'Use Retry-After / reset headers over the computed wait.',
    },
  ],
};

/** BRK: one circuit breaker per provider; out-of-range values are refused. */
const breaker: SectionSpec = {
  id: 'breaker',
  title: 'Provider circuit breaker',
  intro:
    'When a whole provider keeps failing, the breaker opens and skips all of its connections for a while, then lets a probe through to test recovery.',
  outOfRange: 'rejected',
  fields: [],
  profileRows: [
    {
      pattern: 'breaker.{profile}.failureThreshold',
      label: 'Opens after failures',
      kind: 'int',
      ...B.failureThreshold,
    },
    {
      pattern: 'breaker.{profile}.degradationThreshold',
      label: 'Degraded after failures',
      kind: 'int?',
      ...B.degradationThreshold,
      emptyMeans: '60 % of the open threshold',
    },
    {
      pattern: 'breaker.{profile}.resetTimeoutMs',
      label: 'Stays open for',
      kind: 'ms',
      unit: 's',
      ...B.resetTimeoutMs,
    },
    { pattern: 'breaker.{profile}.halfOpenProbes', label: 'Probe requests', kind: 'int', ...B.halfOpenProbes },
    {
      pattern: 'breaker.{profile}.backoffEscalationCount',
      label: 'Failed probes before escalating',
      kind: 'int',
      ...B.backoffEscalationCount,
    },
    {
      pattern: 'breaker.{profile}.maxBackoffMultiplier',
      label: 'Max open-time multiplier',
      kind: 'int',
      ...B.maxBackoffMultiplier,
    },
  ],
};

/** PROV-1..PROV-5: the opt-in provider cooldown window; out-of-range values are refused. */
const windowGate: SectionSpec = {
  id: 'windowGate',
  title: 'Provider cooldown window',
  intro:
    'Off by default. When on, a provider cools down only after many failures inside a time window, so one bad key never benches the rest.',
  outOfRange: 'rejected',
  fields: [
    { path: 'windowGate.enabled', label: 'Enable provider cooldown window', kind: 'bool' },
    {
      path: 'windowGate.minRetryCooldownMs',
      label: 'Connection backoff start',
      kind: 'ms',
      unit: 's',
      ...W.minRetryCooldownMs,
      help: 'Doubles per consecutive failure.',
    },
    {
      path: 'windowGate.maxRetryCooldownMs',
      label: 'Connection backoff cap',
      kind: 'ms',
      unit: 'min',
      ...W.maxRetryCooldownMs,
      help: 'At least the start value.',
    },
  ],
  profileRows: [
    {
      pattern: 'windowGate.profiles.{profile}.providerFailureThreshold',
      label: 'Failures in window',
      kind: 'int',
      ...W.providerFailureThreshold,
    },
    {
      pattern: 'windowGate.profiles.{profile}.providerFailureWindowMs',
      label: 'Window length',
      kind: 'ms',
      unit: 'min',
      ...W.providerFailureWindowMs,
    },
    {
      pattern: 'windowGate.profiles.{profile}.providerCooldownMs',
      label: 'Provider cooldown',
      kind: 'ms',
      unit: 'min',
      ...W.providerCooldownMs,
    },
  ],
};

/** CONC-7..9: wait out a short cooldown instead of failing; ranges as in resilience-combo-wait.ts. */
const comboCooldownWait: SectionSpec = {
  id: 'comboCooldownWait',
  title: 'Wait out short cooldowns',
  intro:
    'When every target of a request is in a short rate-limit or overload cooldown, the request waits for the first one to come back and is sent again instead of failing. Never for exhausted quotas, authentication or not-found errors; streaming clients get keep-alives meanwhile.',
  outOfRange: 'rejected',
  fields: [
    { path: 'comboCooldownWait.enabled', label: 'Wait out short cooldowns', kind: 'bool' },
    {
      path: 'comboCooldownWait.maxWaitMs',
      label: 'Longest cooldown worth waiting for',
      kind: 'ms',
      unit: 's',
      min: 100,
      max: 600_000,
      help: 'A longer cooldown is answered at once with its Retry-After.',
    },
    {
      path: 'comboCooldownWait.maxAttempts',
      label: 'Waits per request',
      kind: 'int',
      min: 1,
      max: 20,
    },
    {
      path: 'comboCooldownWait.budgetMs',
      label: 'Total wait per request',
      kind: 'ms',
      unit: 's',
      min: 100,
      max: 1_800_000,
      help: 'All waits of one request together.',
    },
  ],
};

/** QUEUE-1..9: the per-connection request queue below Max concurrent; ranges as in resilience-request-queue.ts. */
const requestQueue: SectionSpec = {
  id: 'requestQueue',
  title: 'Request queue',
  intro:
    'For connections with a Max concurrent limit: how long a request may wait for its turn, how long it may then run, and how many may wait. A connection’s own overrides win over these; the RATE_LIMIT_* environment variables are the defaults under them.',
  outOfRange: 'rejected',
  fields: [
    {
      path: 'requestQueue.maxWaitMs',
      label: 'Longest wait in the queue',
      kind: 'ms',
      unit: 's',
      min: 1,
      max: 86_400_000,
      help: 'Past it the request fails with RATE_LIMIT_QUEUE_TIMEOUT (503) and is never sent.',
    },
    {
      path: 'requestQueue.executionMaxWaitMs',
      label: 'Longest execution',
      kind: 'ms',
      unit: 'min',
      min: 1,
      max: 86_400_000,
      help: 'A backstop after dispatch (RATE_LIMIT_EXECUTION_TIMEOUT, 504); never shorter than the response timeout.',
    },
    {
      path: 'requestQueue.maxQueueDepth',
      label: 'Requests waiting at most',
      kind: 'int',
      min: 0,
      max: 100_000,
      help: '0 = no limit; one more is refused at once with RATE_LIMIT_QUEUE_FULL (429).',
    },
  ],
};

/** WATCH-1..5: the slow-stream throughput watchdog; ranges as in resilience-watchdog.ts. */
const streamRecovery: SectionSpec = {
  id: 'streamRecovery',
  title: 'Slow-stream watchdog',
  intro:
    'Off by default. Cuts an upstream stream that keeps sending but writes almost no text: before the client saw a byte the next target serves, after it the stream ends with an error event. Heartbeats, usage and tool-call or reasoning phases never count as slow. STREAM_THROUGHPUT_WATCHDOG_* environment variables are the defaults under these.',
  outOfRange: 'rejected',
  fields: [
    { path: 'streamRecovery.throughputWatchdog.enabled', label: 'Cut streams that trickle', kind: 'bool' },
    {
      path: 'streamRecovery.throughputWatchdog.warmupMs',
      label: 'Warm-up',
      kind: 'ms',
      unit: 's',
      min: 0,
      max: 600_000,
      help: 'Never judged before warm-up plus one full window from the first byte.',
    },
    {
      path: 'streamRecovery.throughputWatchdog.windowMs',
      label: 'Window',
      kind: 'ms',
      unit: 's',
      min: 1_000,
      max: 600_000,
      help: 'The sliding window the rate is measured over.',
    },
    {
      path: 'streamRecovery.throughputWatchdog.minUsefulBytesPerSecond',
      label: 'Slowest useful rate (bytes/s)',
      kind: 'int',
      min: 1,
      max: 1_000_000,
      help: 'UTF-8 bytes of answer text per second, averaged over the window.',
    },
    {
      path: 'streamRecovery.throughputWatchdog.minUsefulBytes',
      label: 'Least text to judge',
      kind: 'bytes',
      min: 1,
      max: 1_000_000,
      help: 'A window holding some text but less than this is not judged.',
    },
  ],
};

/** The resilience sections in the order the Settings tab shows them. */
export const RESILIENCE_SECTIONS: SectionSpec[] = [
  cooldown,
  breaker,
  windowGate,
  MODEL_LOCKOUT_SECTION,
  QUOTA_SHARE_CONCURRENCY_SECTION,
  comboCooldownWait,
  requestQueue,
  streamRecovery,
];
