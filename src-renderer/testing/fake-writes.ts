import { fail, ok } from '../../src-shared/contract/errors';
import { effectiveBaseUrl, hintSecret, type ConnectionView } from '../../src-shared/domain/connection';
import type { FakeHandlers } from './fake-handlers';
import type { FakeState } from './fake-state';

/** Puts `item` in place of the one with its name, or last. */
const put = <T extends { name: string }>(list: T[], item: T): T[] =>
  list.some((x) => x.name === item.name) ? list.map((x) => (x.name === item.name ? item : x)) : [...list, item];

const renamed = <T extends { name: string }>(list: T[], from: string, to: string): T[] =>
  list.map((x) => (x.name === from ? { ...x, name: to } : x));

/**
 * The configuration writes (connections, keys, combos, routes, settings), each a tiny state change
 * on the seeded data so the view's re-read shows it: no validation, no cascades, no maths. What the core refuses or recomputes is tested against the real
 * handlers (`*.real.test.tsx`); a test wanting a refusal here wraps the transport.
 */
export function createFakeWrites(state: FakeState, now: () => number) {
  let nextId = 1;
  const found = <T extends { name: string }>(list: T[], name: string, what: string) =>
    list.find((x) => x.name === name) ?? fail('not_found', `No ${what} named "${name}"`);
  return {
    'app.setPaused': ({ paused }) => ok((state.info = { ...state.info, paused })),
    'connections.upsert': (draft) => {
      const existing = state.connections.find((c) => c.name === draft.name);
      const secret = draft.secret?.type === 'api-key' ? draft.secret.apiKey : draft.secret?.accessToken;
      // The view the core lists back: the secret only as its hint, defaults left out.
      const view: ConnectionView = {
        id: existing?.id ?? `c${nextId++}`,
        name: draft.name,
        kind: draft.kind,
        baseUrl: draft.baseUrl ?? null,
        effectiveBaseUrl: effectiveBaseUrl(draft.kind, draft.baseUrl),
        models: draft.models,
        modelAliases: draft.modelAliases,
        priority: draft.priority,
        enabled: draft.enabled,
        maxConcurrent: draft.maxConcurrent,
        disableCooling: draft.disableCooling,
        providerSpecificData: draft.providerSpecificData,
        ...(draft.rateLimitOverrides ? { rateLimitOverrides: draft.rateLimitOverrides } : {}),
        ...(draft.acceptTranslated === false ? { acceptTranslated: false } : {}),
        ...(typeof draft.responsesApi === 'boolean' ? { responsesApi: draft.responsesApi } : {}),
        secretHint: secret === undefined ? (existing?.secretHint ?? null) : hintSecret(secret),
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.connections = put(state.connections, view);
      return ok(view);
    },
    'connections.remove': ({ name }) => {
      state.connections = state.connections.filter((c) => c.name !== name);
      return ok({ removed: true });
    },
    'connections.rename': ({ from, to }) => {
      const view = found(state.connections, from, 'connection');
      if ('ok' in view) return view;
      state.connections = renamed(state.connections, from, to);
      return ok({ ...view, name: to });
    },
    'connections.reset': ({ name }) => {
      const view = found(state.connections, name, 'connection');
      if ('ok' in view) return view;
      state.cooldowns = { ...state.cooldowns, connections: state.cooldowns.connections.filter((c) => c.name !== name) };
      return ok(view);
    },
    'keys.create': ({ name, key, scopes, allowedConnections }) => {
      const id = `k${nextId++}`;
      const plainKey = key ?? `lw-fake-${id}-${'0'.repeat(24)}`;
      const view = {
        id,
        name,
        prefix: plainKey.slice(0, 8),
        createdAt: now(),
        lastUsedAt: null,
        revokedAt: null,
        scopes,
        allowedConnections,
      };
      state.keys = [...state.keys, view];
      return ok({ key: view, plainKey });
    },
    'keys.revoke': ({ id }) => {
      state.keys = state.keys.map((k) => (k.id === id ? { ...k, revokedAt: now() } : k));
      return ok({ revoked: true });
    },
    'keys.rename': ({ id, name }) => {
      state.keys = state.keys.map((k) => (k.id === id ? { ...k, name } : k));
      const view = state.keys.find((k) => k.id === id);
      return view ? ok(view) : fail('not_found', `No key with id "${id}"`);
    },
    'combos.upsert': ({ name, targets, strategy }) => {
      const existing = state.combos.find((c) => c.name === name);
      const view = {
        id: existing?.id ?? `b${nextId++}`,
        name,
        targets,
        strategy,
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.combos = put(state.combos, view);
      return ok(view);
    },
    'combos.remove': ({ name }) => {
      state.combos = state.combos.filter((c) => c.name !== name);
      return ok({ removed: true });
    },
    'combos.rename': ({ from, to }) => {
      const view = found(state.combos, from, 'combo');
      if ('ok' in view) return view;
      state.combos = renamed(state.combos, from, to);
      return ok({ ...view, name: to });
    },
    'routes.replace': ({ routes }) => ok((state.routes = routes)),
    'settings.update': (patch) => ok((state.settings = { ...state.settings, ...patch })),
    // Canned: the settings in force stay as seeded (merging and clamping are the core's; see settings *.real tests).
    'resilience.updateSettings': () => ok(state.resilienceSettings),
  } satisfies Partial<FakeHandlers>;
}
