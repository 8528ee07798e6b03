import type { FetchJson, FetchJsonRequest, FetchJsonResult } from './fetch-json';
import { createLimitResetStore, type LimitResetStore } from './limit-reset-store';
import type { LimitResetAttempt } from './attempt-limit-reset';

/** A fixed instant; tests pass time as numbers and never sleep. */
export const NOW = 1.8e12;
export const BASE = 'http://fake.anthropic.test';
export const ORG = 'org-1111';
export const TOKEN = 'sk-ant-oat01-test';
export const DAY = 24 * 60 * 60_000;

/** A status body with the `juniper_tide` block overridden field by field. */
export function statusBody(block: Record<string, unknown> = {}): unknown {
  return { five_hour: { utilization: 100 }, juniper_tide: { eligible: true, arm: 'reset', available: true, ...block } };
}

type Route = FetchJsonResult | (() => FetchJsonResult | Promise<FetchJsonResult>);

/** A stub `FetchJson` answering by method and path, recording every request it saw. */
export function fakeAnthropic(routes: { status?: Route; claim?: Route; bootstrap?: Route }): {
  fetchJson: FetchJson;
  calls: FetchJsonRequest[];
  posts: () => number;
} {
  const calls: FetchJsonRequest[] = [];
  const fetchJson: FetchJson = async (request) => {
    calls.push(request);
    const path = new URL(request.url).pathname;
    const route =
      path === '/api/oauth/usage'
        ? routes.status
        : path.endsWith('/reset_rate_limits')
          ? routes.claim
          : routes.bootstrap;
    if (route === undefined) return { status: 404, json: null };
    return typeof route === 'function' ? route() : route;
  };
  return { fetchJson, calls, posts: () => calls.filter((c) => c.method === 'POST').length };
}

/** An attempt input against `fetchJson`, with the org UUID stored unless overridden. */
export function attemptFor(
  fetchJson: FetchJson,
  store: LimitResetStore = createLimitResetStore(),
  overrides: Partial<LimitResetAttempt> = {},
): LimitResetAttempt {
  return {
    key: 'conn-a',
    accessToken: TOKEN,
    baseUrl: BASE,
    providerSpecificData: { autoLimitReset: true, organizationUUID: ORG },
    now: NOW,
    fetchJson,
    store,
    ...overrides,
  };
}
