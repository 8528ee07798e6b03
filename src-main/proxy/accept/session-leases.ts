import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import {
  DEFAULT_LEASE_TTL_MS,
  LEASE_OWNER_HEADERS,
  LEASE_OWNER_PATTERN,
  leaseRequestSchema,
  type LeaseGrant,
} from '../../../src-shared/domain/lease';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import { hashLeaseOwner, mintLeaseOwner } from '../../db/lease-owner-material';
import type { ActiveLease, LeaseBook } from '../../routing/leases/lease-book';
import { checkLeaseScope } from '../../routing/leases/lease-fence';
import type { LeaseClaim } from '../../routing/leases/lease-owner-match';
import { acquireLease, releaseLease, renewLease } from '../../routing/leases/lease-lifecycle';
import { sendClientError, type ClientFormat } from '../relay/client-errors';
import type { ProxyContext } from '../proxy-context';
import { noTargetError } from '../stages/no-target-error';

/** The lifecycle door's path on the proxy port (LEASE-5). */
export const SESSION_LEASES_PATH = '/api/v1/session-leases';

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: AppError };

function grantOf(ctx: ProxyContext, lease: ActiveLease, owner: string): LeaseGrant {
  const connection =
    ctx.config.catalog().connections.find((c) => c.view.id === lease.connectionId)?.view.name ?? lease.connectionId;
  return { owner, generation: lease.generation, connection, expiresAt: lease.expiresAt };
}

/**
 * The key's allowed connections normal routing finds eligible now (enabled, with a secret, not
 * cooling, no open breaker), in catalog order: what acquire may lease (LEASE-3, LEASE-9).
 */
function eligibleConnections(ctx: ProxyContext, key: LocalKeyView): { ids: string[]; excluded: TargetExclusion[] } {
  const excluded: TargetExclusion[] = [];
  const targets = [];
  for (const c of ctx.config.catalog().connections) {
    if (!key.allowedConnections.includes(c.view.name)) continue;
    if (!c.view.enabled || !c.secret) {
      excluded.push({
        connection: c.view.name,
        model: null,
        reason: c.view.enabled ? 'no_secret' : 'disabled',
        retryAfterSeconds: null,
      });
      continue;
    }
    targets.push({ connection: c, upstreamModel: c.view.models[0] ?? '' });
  }
  const screened = ctx.engines.resilience.screen(targets, ctx.now());
  return { ids: screened.runnable.map((t) => t.connection.view.id), excluded: [...excluded, ...screened.excluded] };
}

function commit(ctx: ProxyContext, next: LeaseBook): AppError | null {
  const stored = ctx.sessions.leases.commit(next);
  return stored.ok ? null : stored.error;
}

type LeaseRequest = ReturnType<typeof leaseRequestSchema.parse>;
type RequestOf<A extends LeaseRequest['action']> = Extract<LeaseRequest, { action: A }>;
type Refusal = { ok: false; error: AppError };

const refusal = (error: AppError): Refusal => ({ ok: false, error });

/** The lease door's body: JSON, then the schema; a refusal names every problem. */
function parseLeaseRequest(raw: Buffer): { ok: true; input: LeaseRequest } | Refusal {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return refusal({ code: 'invalid_json', message: 'The request body is not valid JSON' });
  }
  const parsed = leaseRequestSchema.safeParse(json);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  return refusal({ code: 'invalid_input', message: `Invalid lease request: ${issues}`, status: 400 });
}

/** One lease call: scope, body and owner checked, then acquire, renew or release. */
function decide(ctx: ProxyContext, key: LocalKeyView, headers: IncomingMessage['headers'], raw: Buffer): Answer {
  const scope = checkLeaseScope(key);
  if (scope) return refusal({ code: scope.code, message: scope.message });
  const parsed = parseLeaseRequest(raw);
  if (!parsed.ok) return parsed;
  const input = parsed.input;
  // The owner travels in the lease-owner header, never in the body; acquire mints one when none is sent.
  const owner = readLeaseOwner(headers);
  if (owner.kind === 'invalid') return refusal({ code: 'lease_headers_invalid', message: owner.message });
  if (input.action === 'acquire') return acquire(ctx, key, input, owner);
  if (owner.kind !== 'present')
    return refusal({ code: 'lease_headers_invalid', message: 'Send the lease owner in x-leeway-lease-owner' });
  const claim = { ownerHash: hashLeaseOwner(owner.owner), generation: input.generation, keyId: key.id };
  return input.action === 'renew' ? renew(ctx, input, claim, owner.owner) : release(ctx, input, claim);
}

function acquire(
  ctx: ProxyContext,
  key: LocalKeyView,
  input: RequestOf<'acquire'>,
  owner: Exclude<OwnerHeader, { kind: 'invalid' }>,
): Answer {
  const plain =
    owner.kind === 'present' ? { owner: owner.owner, ownerHash: hashLeaseOwner(owner.owner) } : mintLeaseOwner();
  const eligible = eligibleConnections(ctx, key);
  const ttlMs = input.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const step = acquireLease(
    ctx.sessions.leases.book(),
    { ownerHash: plain.ownerHash, keyId: key.id, candidates: eligible.ids, ttlMs },
    ctx.now(),
  );
  const d = step.decision;
  switch (d.kind) {
    case 'acquired':
    case 'reused':
    case 'moved': {
      const failed = commit(ctx, step.book);
      return failed ? refusal(failed) : { ok: true, body: { ...grantOf(ctx, d.lease, plain.owner), state: d.kind } };
    }
    case 'no_eligible_connection':
      // LEASE-12: no candidate at all is the ordinary routing answer, not contention.
      return refusal(noTargetError('an exclusive lease', eligible.excluded));
    case 'capacity_unavailable':
      return refusal({
        code: 'lease_capacity_unavailable',
        message: `Every allowed connection is leased by another owner; retry in ${d.retryAfterSeconds}s`,
        retryAfterMs: d.retryAfterSeconds * 1000,
        details: { state: 'waiting_for_capacity', eligibleCount: d.eligibleCount, freeCount: d.freeCount },
      });
    case 'refused':
      return refusal({ code: d.code, message: d.message });
  }
}

function renew(ctx: ProxyContext, input: RequestOf<'renew'>, claim: LeaseClaim, owner: string): Answer {
  const step = renewLease(ctx.sessions.leases.book(), claim, input.ttlMs ?? DEFAULT_LEASE_TTL_MS, ctx.now());
  if (step.decision.kind === 'refused') return refusal({ code: step.decision.code, message: step.decision.message });
  const failed = commit(ctx, step.book);
  return failed
    ? refusal(failed)
    : { ok: true, body: { ...grantOf(ctx, step.decision.lease, owner), state: 'renewed' } };
}

function release(ctx: ProxyContext, input: RequestOf<'release'>, claim: LeaseClaim): Answer {
  const step = releaseLease(ctx.sessions.leases.book(), claim, input.reason ?? 'owner_exit', ctx.now());
  if (step.decision.kind === 'refused') return refusal({ code: step.decision.code, message: step.decision.message });
  const failed = commit(ctx, step.book);
  if (failed) return refusal(failed);
  const lease = step.decision.lease;
  const body = {
    state: 'released',
    generation: lease.generation,
    already: step.decision.already,
    endedAt: lease.endedAt,
  };
  return { ok: true, body };
}

type OwnerHeader = { kind: 'none' } | { kind: 'present'; owner: string } | { kind: 'invalid'; message: string };

/** The lifecycle calls send the owner alone (the generation is in the body); the Leeway name wins (PROD-15). */
function readLeaseOwner(headers: IncomingMessage['headers']): OwnerHeader {
  for (const name of LEASE_OWNER_HEADERS) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
    return LEASE_OWNER_PATTERN.test(value)
      ? { kind: 'present', owner: value }
      : { kind: 'invalid', message: 'The lease owner is not a Leeway lease owner id' };
  }
  return { kind: 'none' };
}

/** `POST /api/v1/session-leases` (LEASE-4, LEASE-5): acquire, renew, release for any HTTP client. */
export function answerLeaseRequest(
  ctx: ProxyContext,
  res: ServerResponse,
  format: ClientFormat,
  key: LocalKeyView,
  headers: IncomingMessage['headers'],
  body: Buffer,
): void {
  const answer = decide(ctx, key, headers, body);
  if (!answer.ok) return sendClientError(res, format, answer.error);
  const text = JSON.stringify(answer.body);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}
