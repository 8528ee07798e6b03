import { asRecord, parseInstantMs } from './parse-instant';

/** `reset` is the treatment arm that may claim; `control` never can. */
export type ResetArm = 'control' | 'reset';

/** The `juniper_tide` block of `/api/oauth/usage`, in camelCase with instants as epoch ms. */
export interface ResetStatus {
  eligible: boolean;
  ineligibleReason: string | null;
  inExperiment: boolean;
  arm: ResetArm | null;
  available: boolean;
  nextAvailableAt: number | null;
  weeklyResetsAt: number | null;
  resetsPerWeek: number;
}

function readArm(value: unknown): ResetArm | null | undefined {
  if (value === undefined || value === null) return null;
  return value === 'control' || value === 'reset' ? value : undefined;
}

function readResetsPerWeek(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 1;
}

/**
 * Parses the status body (RESET-3). A missing block, a non-boolean `eligible` or an unknown arm
 * gives `null`: the shape is undocumented, so anything unexpected is read as "no status".
 */
export function parseResetStatus(json: unknown): ResetStatus | null {
  const block = asRecord(asRecord(json)?.juniper_tide);
  if (block === null || typeof block.eligible !== 'boolean') return null;
  const arm = readArm(block.arm);
  if (arm === undefined) return null;
  return {
    eligible: block.eligible,
    ineligibleReason: typeof block.ineligible_reason === 'string' ? block.ineligible_reason : null,
    inExperiment: block.in_experiment === true,
    arm,
    available: block.available === true,
    nextAvailableAt: parseInstantMs(block.next_available_at),
    weeklyResetsAt: parseInstantMs(block.weekly_resets_at),
    resetsPerWeek: readResetsPerWeek(block.resets_per_week),
  };
}

/** RESET-4: a claim is made only for an eligible account in the `reset` arm with a reset available. */
export function isResetOffered(status: ResetStatus): boolean {
  return status.eligible && status.arm === 'reset' && status.available;
}
