import { z } from 'zod';

/** The scope a local key needs to use leases (LEASE-3), with a non-empty `allowedConnections`. */
export const LEASE_SCOPE = 'lease:exclusive';
export const keyScopeSchema = z.enum([LEASE_SCOPE]);
export type KeyScope = z.infer<typeof keyScopeSchema>;

/** LEASE-7: `vlo_` + 43 base64url characters, i.e. 32 random bytes. Only its SHA-256 is stored. */
export const LEASE_OWNER_PATTERN = /^vlo_[A-Za-z0-9_-]{43}$/;

/** Leeway's header names first, the seed's as aliases (PROD-15); lower-case as node:http delivers. */
export const LEASE_OWNER_HEADERS = ['x-leeway-lease-owner', 'x-omniroute-lease-owner'] as const;
export const LEASE_GENERATION_HEADERS = ['x-leeway-lease-generation', 'x-omniroute-lease-generation'] as const;

/** Lease lifetime: 2 min by default, renewable, clamped to 1 s – 30 min as in the reference. */
export const DEFAULT_LEASE_TTL_MS = 120_000;
export const leaseTtlMsSchema = z.number().int().min(1_000).max(1_800_000);

const generationSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * Body of `POST /api/v1/session-leases` (LEASE-5). Acquire needs no model or client name (LEASE-4);
 * the owner travels in the lease-owner header, never in the body.
 */
export const leaseRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('acquire'), ttlMs: leaseTtlMsSchema.optional() }).strict(),
  z.object({ action: z.literal('renew'), generation: generationSchema, ttlMs: leaseTtlMsSchema.optional() }).strict(),
  z
    .object({
      action: z.literal('release'),
      generation: generationSchema,
      reason: z.enum(['owner_exit', 'client_cancelled']).optional(),
    })
    .strict(),
]);
export type LeaseRequest = z.infer<typeof leaseRequestSchema>;

/** Why a lease ended. */
export type LeaseEndReason =
  'owner_exit' | 'client_cancelled' | 'ttl_expired' | 'key_revoked' | 'connection_removed' | 'cleared';

/** The answer to acquire and renew: the plain owner only in acquire's answer (it is never stored). */
export interface LeaseGrant {
  owner: string;
  generation: number;
  connection: string;
  expiresAt: number;
}

/** One lease as the dashboard lists it; the owner appears only as the first characters of its hash. */
export interface LeaseView {
  ownerHashPrefix: string;
  keyName: string;
  connection: string;
  generation: number;
  state: 'active' | 'ended';
  acquiredAt: number;
  renewedAt: number;
  expiresAt: number;
  endedAt: number | null;
  endReason: LeaseEndReason | null;
}

/**
 * Refusals the lease engine gives, with their HTTP status. To be added to `contract/errors.ts`
 * when the door is wired (issue 9): capacity is 429 with Retry-After (LEASE-11).
 */
export const LEASE_ERROR_STATUS = {
  lease_generation_stale: 409,
  lease_not_held: 409,
  lease_key_mismatch: 403,
  lease_scope_required: 403,
  lease_headers_invalid: 400,
  lease_capacity_unavailable: 429,
} as const;
export type LeaseErrorCode = keyof typeof LEASE_ERROR_STATUS;
