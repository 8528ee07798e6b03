import type { Router } from '../api/router';
import { answer, isRecord, type RestRoute } from './rest-reply';

/** True when a pool of that name exists, so POST can tell "created" (201) from "replaced" (200). */
async function poolExists(router: Router, body: unknown): Promise<boolean> {
  if (!isRecord(body) || typeof body.name !== 'string') return false;
  const name = body.name.trim();
  const pools = await router.call('quota.listPools', undefined);
  return pools.ok && Array.isArray(pools.value) && pools.value.some((p) => isRecord(p) && p.name === name);
}

/**
 * QUI-12/14/15 (issue 10 §5): the quota endpoints, each a thin mapping onto a `quota.*` method.
 * Bodies are the spec's bare shapes (the pool list is an array, `[]` with no pools); refusals use the
 * admin error shape `{ ok: false, error }` with the code's status.
 */
export const QUOTA_REST_ROUTES: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/quota/pools',
    handler: async (router) => answer(await router.call('quota.listPools', undefined)),
  },
  {
    method: 'POST',
    path: '/api/quota/pools',
    handler: async (router, body) => {
      const existed = await poolExists(router, body);
      return answer(await router.call('quota.upsertPool', body), (v) => v, existed ? 200 : 201);
    },
  },
  {
    method: 'GET',
    path: '/api/quota/pools/:id/usage',
    handler: async (router, _body, params) => answer(await router.call('quota.poolUsage', { id: params.id })),
  },
  {
    method: 'PUT',
    path: '/api/quota/plans/:connection',
    handler: async (router, body, params) =>
      // The path names the connection; the body carries only the dimensions.
      answer(
        await router.call('quota.setPlan', {
          connection: params.connection,
          dimensions: isRecord(body) ? body.dimensions : undefined,
        }),
      ),
  },
  {
    method: 'DELETE',
    path: '/api/quota/plans/:connection',
    handler: async (router, _body, params) =>
      answer(await router.call('quota.removePlan', { connection: params.connection })),
  },
];
