import { z } from 'zod';

/** One usage window of a Claude subscription as the unified rate-limit headers report it. */
export interface ClaudeUsageWindow {
  utilization?: number;
  resetsAtSeconds?: number;
  status?: string;
}

/** The 5-hour and weekly windows (and any other the headers name) seen on the last response. */
export interface ClaudeUsage {
  status?: string;
  resetsAtSeconds?: number;
  representativeClaim?: string;
  fiveHour?: ClaudeUsageWindow;
  sevenDay?: ClaudeUsageWindow;
  windows: Readonly<Record<string, ClaudeUsageWindow>>;
  overage?: { status?: string; inUse?: boolean; utilization?: number; resetsAtSeconds?: number };
  observedAt: number;
}

export type ClaudeLaneEndReason =
  'reset' | 'weekly' | 'budget' | 'off' | 'ineligible' | 'wall' | 'max_wait' | 'extra_usage' | 'operator';

/** One sentence per reason a low-priority lane ended, for the card, the tray and the activity feed. */
export const LANE_END_TEXT: Readonly<Record<ClaudeLaneEndReason, string>> = {
  reset: 'the usage window reset',
  weekly: 'the weekly limit was reached',
  budget: 'the low-priority budget is spent',
  off: 'Anthropic switched the low-priority lane off',
  ineligible: 'the account is not eligible for the low-priority lane',
  wall: 'the account hit its usage wall',
  max_wait: 'no slot freed up within the allowed wait',
  extra_usage: 'paid extra usage now covers the limit',
  operator: 'stopped by the operator',
};

export interface ClaudeLaneBlocks {
  coolingOffUntilMs?: number;
  budgetSpentUntilMs?: number;
}
export interface ClaudeActiveLane {
  acceptedAtMs: number;
  resetsAtMs: number;
  expiresAtMs: number;
  retryAfterMs: number;
  maxWaitMs: number;
  requestsServed: number;
  requestsServedStandard: number;
  budgetUtilization?: number;
}

/** The low-priority lane of one connection: idle / active until … / waiting for a slot / ended: reason. */
export type ClaudeLaneView =
  | ({ kind: 'idle' } & ClaudeLaneBlocks)
  | ({ kind: 'active' } & ClaudeActiveLane)
  | ({ kind: 'waiting'; attempts: number; waitingSinceMs: number; nextTryAtMs: number } & ClaudeActiveLane)
  | ({ kind: 'ended'; reason: ClaudeLaneEndReason; atMs: number } & ClaudeLaneBlocks);

/** Everything the connection card and the tray show for one Claude subscription connection. */
export interface ClaudeConnectionStatus {
  connectionId: string;
  usage: ClaudeUsage | null;
  lane: ClaudeLaneView;
  lastReset: { outcome: string; reason: string; at: number } | null;
  lastVia: { via: string; at: number } | null;
}

/** Import the login Claude Code keeps on this machine as a claude-oauth connection. */
export const claudeImportSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._-]+$/),
    /** A credentials file other than Claude Code's default location. */
    path: z.string().min(1).optional(),
    priority: z.number().int().min(0).max(1000).optional(),
  })
  .strict();
