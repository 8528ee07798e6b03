import { answer, type RestRoute } from './rest-reply';

/**
 * Issue 13 §8: `GET /api/usage/summary` for menu-bar apps and scripts — the `overview.usage` answer
 * as it is (`{ at, connections, pools }`, documented in the README), behind the admin token like
 * every `/api/*` path.
 */
export const USAGE_SUMMARY_ROUTES: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/usage/summary',
    handler: async (router) => answer(await router.call('overview.usage', undefined)),
  },
];

/** The prefix the admin door sends to the REST table for these routes. */
export const USAGE_REST_PREFIX = '/api/usage/';
