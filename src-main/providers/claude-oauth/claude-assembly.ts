import type { Settings } from '../../../src-shared/domain/settings';
import type { EventBus } from '../../kernel/event-bus';
import type { ConnectionSecret, ConnectionView } from '../../../src-shared/domain/connection';
import { resolveOrganizationUuid } from './reset/organization-uuid';
import { EnvHttpProxyAgent } from 'undici';
import type { EnvProxySettings } from '../upstream-pools';
import type { FetchJson } from './reset/fetch-json';
import { createUndiciFetchJson } from './undici-fetch-json';
import type { ResilienceControl } from '../../resilience/resilience-control';
import type { Catalog } from '../../kernel/catalog';
import { createClaudeRuntime, type ClaudeRuntime } from './claude-runtime';
import { createOAuthTokens, type RefreshOwnership } from './oauth-tokens';

/** What the Claude runtime reads and writes of stored connections (db/connections-repo.ts implements it). */
export interface ClaudeConnectionStore {
  getById(id: string): (ConnectionView & { secret: ConnectionSecret | null }) | null;
  setSecret(id: string, secret: ConnectionSecret, now: number): boolean;
  mergeProviderData(id: string, patch: Record<string, unknown>, now: number): boolean;
}

export interface ClaudeAssemblyDeps {
  connections: ClaudeConnectionStore;
  control: ResilienceControl;
  settings(): Settings;
  catalog(): Catalog;
  /** Tells the windows after a stored connection changed (the catalog follows the repository's change event). */
  connectionsChanged(): void;
  events: EventBus;
  /** The environment's proxy variables (HTTPS_PROXY / NO_PROXY) as the entry read them. */
  proxy: EnvProxySettings | null;
  now(): number;
  /** One refresh-token owner per connection across a team of instances (issue 24 §4). */
  ownership?: RefreshOwnership;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** Wires token refresh and the Claude runtime to storage, settings and the resilience engine. */
export function assembleClaude(deps: ClaudeAssemblyDeps): ClaudeRuntime {
  const fetchJson = claudeFetchJson(deps.proxy);
  const psd = (id: string) => deps.connections.getById(id)?.providerSpecificData ?? {};
  const tokens = createOAuthTokens({
    readSecret(id) {
      const secret = deps.connections.getById(id)?.secret;
      return secret?.type === 'oauth' ? secret : null;
    },
    saveSecret(id, secret) {
      deps.connections.setSecret(id, secret, deps.now());
      deps.connectionsChanged();
    },
    onNeedsReauth: (id, message) => deps.control.markTerminal(id, 'needs_reauth', message, deps.now()),
    fetchJson,
    // Per connection first, so a test (or a proxy in front of the token endpoint) can point elsewhere.
    tokenUrl: (id) => str(psd(id).oauthTokenUrl) ?? deps.settings().claudeOAuthTokenUrl,
    clientId: () => deps.settings().claudeOAuthClientId,
    scopes: (id) => {
      const scopes = psd(id).scopes;
      return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
    },
    now: deps.now,
    ...(deps.ownership ? { ownership: deps.ownership } : {}),
  });
  let pending = false;
  const runtime = createClaudeRuntime({
    tokens,
    fetchJson,
    now: deps.now,
    random: Math.random,
    onChange() {
      // Coalesced like cooldowns: one UI update per tick however many responses arrived.
      if (pending) return;
      pending = true;
      setImmediate(() => {
        pending = false;
        deps.events.emit('claude.changed', { status: runtime.status(deps.catalog().connections) });
      });
    },
    saveOrganizationUuid(id, uuid) {
      deps.connections.mergeProviderData(id, { organizationUUID: uuid }, deps.now());
      deps.connectionsChanged();
    },
  });
  return runtime;
}

/**
 * RESET-5: a connection with auto limit reset but no organisation UUID looks it up at start (in the
 * background, never delaying the proxy), so the first wall can claim at once.
 */
export function lookUpMissingOrganizations(deps: ClaudeAssemblyDeps): void {
  const fetchJson = claudeFetchJson(deps.proxy);
  for (const c of deps.catalog().connections) {
    const psd = c.view.providerSpecificData;
    if (c.view.kind !== 'claude-oauth' || psd.autoLimitReset !== true || c.secret?.type !== 'oauth') continue;
    if (typeof psd.organizationUUID === 'string' || typeof psd.organization_uuid === 'string') continue;
    void resolveOrganizationUuid({
      accessToken: c.secret.accessToken,
      baseUrl: c.origin + c.basePath,
      providerSpecificData: psd,
      fetchJson,
    })
      .then((found) => {
        if (found.kind !== 'bootstrap') return;
        deps.connections.mergeProviderData(c.view.id, { organizationUUID: found.organizationUuid }, deps.now());
        deps.connectionsChanged();
      })
      .catch(() => undefined);
  }
}

/**
 * Token refresh and the organisation lookup reach Anthropic's own endpoints, through the
 * environment's HTTPS_PROXY / NO_PROXY like upstream traffic when those are set (issue 13 §8).
 */
export function claudeFetchJson(proxy: EnvProxySettings | null): FetchJson {
  return proxy === null ? createUndiciFetchJson() : createUndiciFetchJson({ dispatcher: new EnvHttpProxyAgent(proxy) });
}
