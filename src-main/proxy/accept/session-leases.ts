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
import { acquireLease, releaseLease, renewLease } from '../../routing/leases/lease-lifecycle';
import { sendClientError, type ClientFormat } from '../relay/client-errors';
import type { ProxyContext } from '../proxy-context';
import { noTargetError } from '../stages/no-target-error';

/** The lifecycle door's path on the proxy port (LEASE-5). */
export const SESSION_LEASES_PATH = '/api/v1/session-leases';

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: AppError };

function grantOf(ctx: ProxyContext, lease: ActiveLease, owner: string): LeaseGrant {
  const connection =
    ctx.catalog().connections.find((c) => c.view.id === lease.connectionId)?.view.name ?? lease.connectionId;
  return { owner, generation: lease.generation, connection, expiresAt: lease.expiresAt };
}

/**
 * The key's allowed connections normal routing finds eligible now (enabled, with a secret, not
 * cooling, no open breaker), in catalog order: what acquire may lease (LEASE-3, LEASE-9).
 */
function eligibleConnections(ctx: ProxyContext, key: LocalKeyView): { ids: string[]; excluded: TargetExclusion[] } {
  const excluded: TargetExclusion[] = [];
  const targets = [];
  for (const c of ctx.catalog().connections) {
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
  const screened = ctx.resilience.screen(targets, ctx.now());
  return { ids: screened.runnable.map((t) => t.connection.view.id), excluded: [...excluded, ...screened.excluded] };
}

function commit(ctx: ProxyContext, next: LeaseBook): AppError | null {
  const stored = ctx.leases.commit(next);
  return stored.ok ? null : stored.error;
}

function decide(ctx: ProxyContext, key: LocalKeyView, headers: IncomingMessage['headers'], raw: Buffer): Answer {
  const scope = checkLeaseScope(key);
  if (scope) return { ok: false, error: { code: scope.code, message: scope.message } };
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, error: { code: 'invalid_json', message: 'The request body is not valid JSON' } };
  }
  const parsed = leaseRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    return { ok: false, error: { code: 'invalid_input', message: `Invalid lease request: ${issues}`, status: 400 } };
  }
  const input = parsed.data;
  // The owner travels in the lease-owner header, never in the body; acquire mints one when none is sent.
  const owner = readLeaseOwner(headers);
  if (owner.kind === 'invalid') return { ok: false, error: { code: 'lease_headers_invalid', message: owner.message } };
  const now = ctx.now();
  const book = ctx.leases.book();
  if (input.action === 'acquire') {
    const plain =
      owner.kind === 'present' ? { owner: owner.owner, ownerHash: hashLeaseOwner(owner.owner) } : mintLeaseOwner();
    const eligible = eligibleConnections(ctx, key);
    const step = acquireLease(
      book,
      {
        ownerHash: plain.ownerHash,
        keyId: key.id,
        candidates: eligible.ids,
        ttlMs: input.ttlMs ?? DEFAULT_LEASE_TTL_MS,
      },
      now,
    );
    const d = step.decision;
    switch (d.kind) {
      case 'acquired':
      case 'reused':
      case 'moved': {
        const failed = commit(ctx, step.book);
        return failed
          ? { ok: false, error: failed }
          : { ok: true, body: { ...grantOf(ctx, d.lease, plain.owner), state: d.kind } };
      }
      case 'no_eligible_connection':
        // LEASE-12: no candidate at all is the ordinary routing answer, not contention.
        return { ok: false, error: noTargetError('an exclusive lease', eligible.excluded) };
      case 'capacity_unavailable':
        return {
          ok: false,
          error: {
            code: 'lease_capacity_unavailable',
            message: `Every allowed connection is leased by another owner; retry in ${d.retryAfterSeconds}s`,
            retryAfterMs: d.retryAfterSeconds * 1000,
            details: { state: 'waiting_for_capacity', eligibleCount: d.eligibleCount, freeCount: d.freeCount },
          },
        };
      case 'refused':
        return { ok: false, error: { code: d.code, message: d.message } };
    }
  }
  if (owner.kind !== 'present')
    return {
      ok: false,
      error: { code: 'lease_headers_invalid', message: 'Send the lease owner in x-leeway-lease-owner' },
    };
  const claim = { ownerHash: hashLeaseOwner(owner.owner), generation: input.generation, keyId: key.id };
  if (input.action === 'renew') {
    const step = renewLease(book, claim, input.ttlMs ?? DEFAULT_LEASE_TTL_MS, now);
    if (step.decision.kind === 'refused')
      return { ok: false, error: { code: step.decision.code, message: step.decision.message } };
    const failed = commit(ctx, step.book);
    return failed
      ? { ok: false, error: failed }
      : { ok: true, body: { ...grantOf(ctx, step.decision.lease, owner.owner), state: 'renewed' } };
  }
  const step = releaseLease(book, claim, input.reason ?? 'owner_exit', now);
  if (step.decision.kind === 'refused')
    return { ok: false, error: { code: step.decision.code, message: step.decision.message } };
  const failed = commit(ctx, step.book);
  const lease = step.decision.lease;
  return failed
    ? { ok: false, error: failed }
    : {
        ok: true,
        body: {
          state: 'released',
          generation: lease.generation,
          already: step.decision.already,
          endedAt: lease.endedAt,
        },
      };
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
