import { z } from 'zod';

/**
 * Headers a session key is read from, first present one wins (AFF-1, AFF-7, PROD-15); lower-case as
 * node:http delivers them. `session-id` is what the codex CLI sends. None is ever forwarded upstream.
 */
export const SESSION_HEADERS = [
  'x-leeway-session',
  'x-session-id',
  'x-claude-code-session-id',
  'session-id',
  'x-codex-session-id',
  'x-omniroute-session',
] as const;
export type SessionHeader = (typeof SESSION_HEADERS)[number];

/** AFF-8: pins live one hour unless the setting says otherwise; `0` switches affinity off (AFF-3). */
export const DEFAULT_SESSION_AFFINITY_TTL_MS = 3_600_000;

/** The `sessionAffinityTtlMs` setting: 0 (off) up to a week; the same for every provider (AFF-3). */
export const sessionAffinityTtlMsSchema = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3_600_000);

/** One active pin as the dashboard lists it (names, not ids, so a person can read it). */
export interface SessionPinView {
  keyName: string;
  session: string;
  /** Issue 23 §3: the subagent whose own pin this is (its route spreads subagents); absent or null: the session's pin. */
  agent?: string | null;
  /** The requested model, combo or route the pin is scoped to (AFF-7). */
  target: string;
  connection: string;
  createdAt: number;
  lastServedAt: number;
  expiresAt: number;
}

/** The dashboard's clear action: every pin, one connection's, or one exact pin. */
export const pinClearSchema = z.discriminatedUnion('target', [
  z.object({ target: z.literal('all') }).strict(),
  z.object({ target: z.literal('connection'), connection: z.string().trim().min(1) }).strict(),
  z
    .object({
      target: z.literal('pin'),
      keyName: z.string().trim().min(1),
      session: z.string().min(1),
      scope: z.string().min(1),
      /** A spread subagent's own pin (issue 23 §3); absent: the session's. */
      agent: z.string().min(1).optional(),
    })
    .strict(),
]);
export type PinClear = z.infer<typeof pinClearSchema>;
