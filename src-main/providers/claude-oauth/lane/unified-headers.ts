import { readBoolean, readNonNegative, toHeaderMap, type HeaderSource } from './header-source';

/** Prefix shared by every header of Claude's unified (5 h / 7 d) usage limit. */
export const UNIFIED_PREFIX = 'anthropic-ratelimit-unified-';

/** `slow-offer`: the account may (treatment) or may not (control) use the low-priority lane. */
export type SlowOffer = 'treatment' | 'control';

/** `slow-status` values of Claude Code 2.1.263; anything newer reads as `unrecognized`. */
export type SlowStatus =
  'active' | 'not_needed' | 'slot_busy' | 'weekly_limit' | 'budget_exhausted' | 'ineligible' | 'off' | 'unrecognized';

const SLOW_STATUSES: ReadonlySet<string> = new Set([
  'active',
  'not_needed',
  'slot_busy',
  'weekly_limit',
  'budget_exhausted',
  'ineligible',
  'off',
]);

/** Everything the lane reads off one response; every field is absent when its header is. */
export interface UnifiedHeaders {
  /** `rejected` means the account hit its usage wall. */
  status?: string;
  resetSeconds?: number;
  fiveHourResetSeconds?: number;
  sevenDayResetSeconds?: number;
  /** Which window is blamed: `five_hour`, `seven_day`, … */
  representativeClaim?: string;
  overageStatus?: string;
  overageInUse?: boolean;
  slowOffer?: SlowOffer;
  slowStatus?: SlowStatus;
  slowRetryAfterSeconds?: number;
  slowMaxWaitSeconds?: number;
  slowBudgetUtilization?: number;
  slowBudgetResetSeconds?: number;
}

function parseSlowStatus(raw: string | undefined): SlowStatus | undefined {
  if (raw === undefined) return undefined;
  return SLOW_STATUSES.has(raw) ? (raw as SlowStatus) : 'unrecognized';
}

function parseSlowOffer(raw: string | undefined): SlowOffer | undefined {
  return raw === 'treatment' || raw === 'control' ? raw : undefined;
}

/** Reads every `anthropic-ratelimit-unified-*` header the lane state machine uses (§7.2). */
export function parseUnifiedHeaders(source: HeaderSource): UnifiedHeaders {
  return unifiedFromMap(toHeaderMap(source));
}

/** `parseUnifiedHeaders` over headers already flattened (see `readClaudeUnified`). */
export function unifiedFromMap(map: ReadonlyMap<string, string>): UnifiedHeaders {
  const text = (suffix: string): string | undefined => map.get(UNIFIED_PREFIX + suffix);
  const num = (suffix: string): number | undefined => readNonNegative(text(suffix));
  const out: UnifiedHeaders = {
    status: text('status'),
    resetSeconds: num('reset'),
    fiveHourResetSeconds: num('5h-reset'),
    sevenDayResetSeconds: num('7d-reset'),
    representativeClaim: text('representative-claim'),
    overageStatus: text('overage-status'),
    overageInUse: readBoolean(text('overage-in-use')),
    slowOffer: parseSlowOffer(text('slow-offer')),
    slowStatus: parseSlowStatus(text('slow-status')),
    slowRetryAfterSeconds: num('slow-retry-after'),
    slowMaxWaitSeconds: num('slow-max-wait'),
    slowBudgetUtilization: num('slow-budget-utilization'),
    slowBudgetResetSeconds: num('slow-budget-reset'),
  };
  // Absent keys rather than `undefined` values keep snapshots and test equality tidy.
  for (const key of Object.keys(out) as (keyof UnifiedHeaders)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** The response speaks about the usage wall: status `rejected`, or any slow-lane offer at all. */
export function isAtWall(headers: UnifiedHeaders): boolean {
  return headers.status === 'rejected' || headers.slowOffer !== undefined;
}

/** Paid overage now covers the limit, so the slow lane has nothing left to do (LOWP-10). */
export function isExtraUsage(headers: UnifiedHeaders): boolean {
  return headers.slowStatus === 'ineligible' && headers.overageInUse === true;
}
