import type { Classification, ClassifyContext, UpstreamOutcome } from './classification';
import { classifyResponse } from './classify-response';
import { DEFAULT_ERROR_CATALOG, type ErrorCatalog } from './error-catalog';
import { resolveService, type UpstreamService } from './known-providers';
import { resolveLockScope } from './lock-scope';
import { describeFailure, withoutUpstreamAddress } from './message';

type Local = Extract<UpstreamOutcome, { kind: 'local' }>['failure'];
type Transport = Extract<UpstreamOutcome, { kind: 'transport' }>['failure'];

const LOCAL_TEXT: Readonly<Record<Local, string>> = {
  client_closed: 'the client closed the connection',
  queue_timeout: 'waited too long in the local queue',
  aborted: 'the request was aborted locally',
};

const TRANSPORT_TEXT: Readonly<Record<Transport, string>> = {
  timeout: 'the upstream did not answer in time',
  unreachable: 'the upstream could not be reached',
  reset: 'the upstream reset the connection',
  empty_response: 'the upstream answer failed the quality check',
};

const NOTHING = { retryHint: null, terminal: null, requestRejected: false } as const;

/** Local failures are ours, never an upstream's: no cooldown, no lock, no breaker, no failover. */
function classifyLocal(failure: Local, where: string): Classification {
  const message = describeFailure({ where, status: null, reason: failure, detail: LOCAL_TEXT[failure] });
  return {
    ...NOTHING,
    reason: failure,
    scope: 'request',
    shouldFailover: false,
    countsForBreaker: false,
    status: null,
    lockScope: null,
    message,
  };
}

function classifyTransport(failure: Transport, where: string, ctx: ClassifyContext): Classification {
  if (failure === 'empty_response') {
    // Our synthesised 502 (LOCK-4): one model's bad answer, locked exactly; the provider is fine.
    const message = describeFailure({ where, status: 502, reason: failure, detail: TRANSPORT_TEXT[failure] });
    const lockScope = resolveLockScope(502, ctx.explicitLockScope);
    return {
      ...NOTHING,
      reason: 'empty_response',
      scope: 'model',
      shouldFailover: true,
      countsForBreaker: false,
      status: 502,
      lockScope,
      message,
    };
  }
  const reason = failure === 'timeout' ? 'timeout' : 'network_error';
  const message = describeFailure({ where, status: null, reason, detail: TRANSPORT_TEXT[failure] });
  const lockScope = resolveLockScope(null, ctx.explicitLockScope);
  return {
    ...NOTHING,
    reason,
    scope: 'provider',
    shouldFailover: true,
    countsForBreaker: true,
    status: null,
    lockScope,
    message,
  };
}

/**
 * Classifies one failed upstream attempt, once (ARCHITECTURE §2 step 7): status restatement →
 * account and quota signals → provider rules (operator, then built-in) → status. Pure; `now` is given.
 */
export function classifyOutcome(outcome: UpstreamOutcome, ctx: ClassifyContext): Classification {
  const catalog = ctx.catalog ?? DEFAULT_ERROR_CATALOG;
  const service = resolveService(ctx.provider, catalog.knownHosts);
  const where =
    ctx.connection !== undefined ? `${ctx.connection}:` : ctx.model ? `${service.id}/${ctx.model}` : service.id;
  const classification = classifyWhere(outcome, ctx, service, where, catalog);
  if (ctx.connection === undefined) return classification;
  return { ...classification, message: withoutUpstreamAddress(classification.message, ctx.provider.origin) };
}

function classifyWhere(
  outcome: UpstreamOutcome,
  ctx: ClassifyContext,
  service: UpstreamService,
  where: string,
  catalog: ErrorCatalog,
): Classification {
  switch (outcome.kind) {
    case 'local':
      return classifyLocal(outcome.failure, where);
    case 'transport':
      return classifyTransport(outcome.failure, where, ctx);
    case 'response':
      return classifyResponse(outcome, ctx, { service, where, catalog });
  }
}
