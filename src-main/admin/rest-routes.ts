import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Result } from '../../src-shared/contract/errors';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { Router } from '../api/router';
import { sendError, sendJson } from './http-replies';
import { QUOTA_REST_ROUTES } from './quota-rest-routes';
import { MAX_RPC_BODY_BYTES, readJsonBody } from './read-json-body';
import { compilePath, type PathParams, type PathPattern } from './rest-match';
import { answer, isRecord, type RestHandler, type RestRoute } from './rest-reply';
import { USAGE_REST_PREFIX, USAGE_SUMMARY_ROUTES } from './usage-summary-route';
import { DECISION_REST_PREFIX, DECISION_ROUTES } from './decision-route';

/**
 * The spec's REST endpoints (LOCK-8, BRK-7, BRK-8, issue 3 §6, QUI-12), each a thin mapping onto contract
 * methods so the window, the tray and these URLs can never disagree.
 */

const snapshot = async (router: Router): Promise<Result<CooldownSnapshot>> =>
  (await router.call('cooldowns.list', undefined)) as Result<CooldownSnapshot>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim().length > 0 ? v.trim() : null);

const RESILIENCE_ROUTES: Record<string, RestHandler> = {
  'GET /api/resilience/cooldowns': async (router) => answer(await snapshot(router), (s) => s),
  'DELETE /api/resilience/cooldowns': async (router, body) => {
    const connection = isRecord(body) ? str(body.connection) : null;
    if (isRecord(body) && body.connection !== undefined && connection === null) {
      return {
        status: 400,
        body: { ok: false, error: { code: 'invalid_input', message: 'connection: must be a connection name or id' } },
      };
    }
    const input = connection === null ? { target: 'all' } : { target: 'connection', connection };
    return answer(await router.call('cooldowns.clear', input), (v) => ({ ok: true, ...(v as object) }));
  },
  'GET /api/resilience/model-cooldowns': async (router) => {
    const s = await snapshot(router);
    return answer(s, (v) => ({ items: [...(v as CooldownSnapshot).models].sort((a, b) => b.expiresAt - a.expiresAt) }));
  },
  'DELETE /api/resilience/model-cooldowns': async (router, body) => {
    if (isRecord(body) && body.all === true) {
      const s = await snapshot(router);
      if (!s.ok) return answer(s);
      for (const m of s.value.models) await router.call('cooldowns.clear', { target: 'model', key: m.key });
      return { status: 200, body: { ok: true, clearedAll: true, removed: s.value.models.length } };
    }
    const provider = isRecord(body) ? str(body.provider) : null;
    const model = isRecord(body) ? str(body.model) : null;
    const connection = isRecord(body) ? str(body.connection) : null;
    if (!provider || !model) {
      return {
        status: 400,
        body: { ok: false, error: { code: 'invalid_input', message: 'provider and model are required' } },
      };
    }
    const s = await snapshot(router);
    if (!s.ok) return answer(s);
    const matches = s.value.models.filter(
      (m) =>
        m.provider === provider &&
        m.model === model &&
        (connection === null || m.connection === connection || m.connectionId === connection),
    );
    for (const m of matches) await router.call('cooldowns.clear', { target: 'model', key: m.key });
    return { status: 200, body: { ok: true, removed: matches.length } };
  },
  'POST /api/resilience/reset': async (router) =>
    answer(await router.call('resilience.reset', undefined), (v) => {
      const resetCount = (v as { resetCount: number }).resetCount;
      return { ok: true, resetCount, message: `Reset ${resetCount} circuit breaker(s) and model lockouts` };
    }),
  'GET /api/monitoring/health': async (router) => {
    const s = await snapshot(router);
    return answer(s, (v) => {
      const snap = v as CooldownSnapshot;
      return {
        status: snap.providers.some((p) => p.state === 'OPEN') ? 'degraded' : 'ok',
        providers: snap.providers.map((p) => ({
          provider: p.provider,
          state: p.state,
          failureCount: p.failureCount,
          retryAfterMs: p.retryAfterMs,
        })),
        coolingConnections: snap.connections.filter((c) => c.retryAfterMs !== null || c.terminal).length,
        modelLockouts: snap.models.length,
      };
    });
  },
};

/** Where the REST endpoints live; the admin door sends these prefixes here. */
const REST_PREFIXES = [
  '/api/resilience/',
  '/api/monitoring/',
  '/api/quota/',
  USAGE_REST_PREFIX,
  DECISION_REST_PREFIX,
] as const;

export const isRestPath = (pathname: string): boolean => REST_PREFIXES.some((prefix) => pathname.startsWith(prefix));

const ROUTES: ReadonlyArray<RestRoute & { compiled: PathPattern }> = [
  ...Object.entries(RESILIENCE_ROUTES).map(([key, handler]): RestRoute => {
    const space = key.indexOf(' ');
    return { method: key.slice(0, space), path: key.slice(space + 1), handler };
  }),
  ...QUOTA_REST_ROUTES,
  ...USAGE_SUMMARY_ROUTES,
  ...DECISION_ROUTES,
].map((route) => ({ ...route, compiled: compilePath(route.path) }));

const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE']);

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  router: Router,
): Promise<void> {
  const method = req.method ?? 'GET';
  const matches: Array<{ route: RestRoute; params: Result<PathParams> }> = [];
  for (const route of ROUTES) {
    const params = route.compiled.match(pathname);
    if (params !== null) matches.push({ route, params });
  }
  const hit = matches.find((m) => m.route.method === method);
  if (!hit) {
    req.resume();
    if (matches.length === 0) return sendError(res, { code: 'not_found', message: 'No such admin endpoint' });
    const allow = [...new Set(matches.map((m) => m.route.method))].join(', ');
    return sendError(res, { code: 'method_not_allowed', message: `Use ${allow} for ${pathname}` }, { allow });
  }
  const { params } = hit;
  if (!params.ok) {
    req.resume();
    return sendError(res, params.error);
  }
  let body: unknown = undefined;
  if (WITH_BODY.has(method)) {
    const parsed = await readJsonBody(req, MAX_RPC_BODY_BYTES);
    if (!parsed.ok) return sendError(res, parsed.error);
    body = parsed.value ?? undefined;
  } else req.resume();
  const out = await hit.route.handler(router, body, params.value);
  sendJson(res, out.status, out.body);
}
