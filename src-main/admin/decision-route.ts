import { decisionLines, type RequestDecision } from '../../src-shared/domain/decision';
import { answer, refuse, type RestRoute } from './rest-reply';

/**
 * Issue 24 §1: `GET /api/requests/:id/decision` (`:id` a request id or `last`), the
 * `activity.decision` answer (`{ id, decision }`) with its timeline as text (`lines`), behind the admin token like every `/api/*` path.
 */
export const DECISION_ROUTES: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/api/requests/:id/decision',
    handler: async (router, _body, params) => {
      const raw = params.id ?? '';
      const id = raw === 'last' ? 'last' : /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
      if (id === null) return refuse('invalid_input', 'id: must be a request id (a positive integer) or "last"');
      const found = await router.call('activity.decision', { id });
      // The readable timeline too, so `leeway why` (plain JS) prints the dashboard's own words.
      return answer(found, (v) => ({
        ...(v as RequestDecision),
        lines: decisionLines((v as RequestDecision).decision),
      }));
    },
  },
];

/** The prefix the admin door sends to the REST table for these routes. */
export const DECISION_REST_PREFIX = '/api/requests/';
