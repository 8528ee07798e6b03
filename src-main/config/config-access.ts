import type { z } from 'zod';
import { LEASE_SCOPE, type KeyScope } from '../../src-shared/domain/lease';
import type { Route } from '../../src-shared/domain/route';
import { routeListProblems, type RouteKnowledge } from '../../src-shared/domain/route-targets';
import { configKeySchema, configRouteSchema } from './config-schema';

export interface ConfigProblem {
  path: string;
  message: string;
}

export interface ConfigKey {
  name: string;
  key: string;
  scopes: KeyScope[];
  allowedConnections: string[];
}

const joinPath = (parts: readonly PropertyKey[]) => parts.map(String).join('.');

export function issuesAt(prefix: string, error: z.ZodError): ConfigProblem[] {
  return error.issues.map((i) => ({
    path: [prefix, joinPath(i.path)].filter((p) => p.length > 0).join('.') || '(root)',
    message: i.message,
  }));
}

/** The file's keys: unknown connections in `allowedConnections` and LEASE-3's rule are problems with their path. */
export function checkKeys(
  entries: readonly unknown[],
  connections: ReadonlySet<string>,
  problems: ConfigProblem[],
): ConfigKey[] {
  const keys: ConfigKey[] = [];
  entries.forEach((entry, index) => {
    const at = `keys.${index}`;
    const k = configKeySchema.safeParse(entry);
    if (!k.success) return void problems.push(...issuesAt(at, k.error));
    if (keys.some((other) => other.name === k.data.name))
      problems.push({ path: `${at}.name`, message: `duplicate key name "${k.data.name}"` });
    k.data.allowedConnections.forEach((name, ci) => {
      if (!connections.has(name))
        problems.push({ path: `${at}.allowedConnections.${ci}`, message: `unknown connection "${name}"` });
    });
    if (k.data.scopes.includes(LEASE_SCOPE) && k.data.allowedConnections.length === 0) {
      problems.push({
        path: `${at}.allowedConnections`,
        message: `is required (non-empty) for a key with the "${LEASE_SCOPE}" scope`,
      });
    }
    keys.push(k.data);
  });
  return keys;
}

/** The file's routes, each checked on its own, then the list as a whole (targets, reachability). */
export function checkRoutes(entries: readonly unknown[], known: RouteKnowledge, problems: ConfigProblem[]): Route[] {
  const routes: Route[] = [];
  const positions: number[] = [];
  entries.forEach((entry, index) => {
    const route = configRouteSchema.safeParse(entry);
    if (!route.success) return void problems.push(...issuesAt(`routes.${index}`, route.error));
    routes.push(route.data);
    positions.push(index);
  });
  for (const p of routeListProblems(routes, known, (i) => (positions[i] ?? i) + 1)) {
    problems.push({ path: `routes.${positions[p.index] ?? p.index}.${p.field}`, message: p.message });
  }
  return routes;
}
