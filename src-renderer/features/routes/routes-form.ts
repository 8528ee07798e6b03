import type { AppError } from '../../../src-shared/contract/errors';
import { routeSchema, type Route, type SubagentMode } from '../../../src-shared/domain/route';
import { routeListProblems, type RouteKnowledge } from '../../../src-shared/domain/route-targets';
import { inputIssuesOf } from '../../api/error-issues';

/** One row as typed; `key` stays with the row across moves so React keeps its inputs and focus. */
export interface RouteDraft {
  key: number;
  match: string;
  to: string;
  /** Issue 23 §3: how Claude Code subagents are placed; `share` is saved as no option at all. */
  subagents: SubagentMode;
}

/** Messages by row and field (`3.to`), `form` for what names no row. */
export type RouteErrors = Partial<Record<`${number}.${'match' | 'to'}` | 'form', string>>;

let nextKey = 1;
export const newRoute = (match = '', to = '', subagents: SubagentMode = 'share'): RouteDraft => ({
  key: nextKey++,
  match,
  to,
  subagents,
});
export const draftsFrom = (routes: readonly Route[]): RouteDraft[] =>
  routes.map((r) => newRoute(r.match, r.to, r.subagents));

/** The Claude Code recipe: background haiku calls to a cheap combo, everything else to the main one. */
export const CLAUDE_CODE_RECIPE: readonly Route[] = [
  { match: '*haiku*', to: 'cheap' },
  { match: '*', to: 'main' },
];

const add = (errors: RouteErrors, key: keyof RouteErrors, message: string): void => {
  if (!errors[key]) errors[key] = message;
};

/** The list to save, or messages per field: the contract's schema first, then targets and reachability. */
export function buildRoutes(
  drafts: readonly RouteDraft[],
  known: RouteKnowledge,
): { ok: true; routes: Route[] } | { ok: false; errors: RouteErrors } {
  const errors: RouteErrors = {};
  const routes: Route[] = [];
  drafts.forEach((draft, index) => {
    const spread = draft.subagents === 'spread' ? { subagents: draft.subagents } : {};
    const parsed = routeSchema.safeParse({ match: draft.match, to: draft.to, ...spread });
    if (parsed.success) return void routes.push(parsed.data);
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'to' ? 'to' : 'match';
      add(errors, `${index}.${field}`, issue.message);
    }
  });
  if (Object.keys(errors).length === 0) {
    for (const problem of routeListProblems(routes, known))
      add(errors, `${problem.index}.${problem.field}`, problem.message);
  }
  return Object.keys(errors).length === 0 ? { ok: true, routes } : { ok: false, errors };
}

/** The core's refusal placed next to the rows it names (`routes.2.to`). */
export function routeErrorsFrom(error: AppError): RouteErrors {
  const errors: RouteErrors = {};
  for (const issue of inputIssuesOf(error)) {
    const [head, index, field] = issue.path.split('.');
    if (head === 'routes' && index !== undefined && /^\d+$/.test(index) && (field === 'match' || field === 'to')) {
      add(errors, `${Number(index)}.${field}`, issue.message);
    } else add(errors, 'form', `${issue.path}: ${issue.message}`);
  }
  return Object.keys(errors).length > 0 ? errors : { form: error.message };
}
