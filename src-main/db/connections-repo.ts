import { randomUUID } from 'node:crypto';
import {
  connectionSecretSchema,
  effectiveBaseUrl,
  hintSecret,
  maskProxyUrl,
  rateLimitOverridesSchema,
  type ConnectionDraft,
  type ConnectionKind,
  type ConnectionSecret,
  type ConnectionView,
  type RateLimitOverrides,
} from '../../src-shared/domain/connection';
import type { SecretBox } from '../secrets/secret-box';
import { parseJsonArray, parseJsonObject } from '../kernel/json-columns';
import type { Database } from './open';

/**
 * A connection as the core holds it: the view plus its decrypted secret and, when set, the outbound
 * proxy URL with its credentials (the view only has the masked form). Never leaves the core.
 */
export type StoredConnection = ConnectionView & { secret: ConnectionSecret | null; outboundProxy?: string };

/** Persistence of upstream connections, with secrets sealed by a SecretBox at rest. */
export interface ConnectionsRepo {
  /** All connections, by priority (lower first) then name. */
  list(): StoredConnection[];
  getByName(name: string): StoredConnection | null;
  getById(id: string): StoredConnection | null;
  /** Inserts or replaces by name; a draft without `secret` keeps the stored one. */
  upsert(draft: ConnectionDraft, now: number): StoredConnection;
  remove(name: string): boolean;
  /**
   * Gives the connection `id` a new name in place (issue 13 §8); everything keyed by id keeps pointing
   * at it. The caller checks the name is free (the column is UNIQUE) and rewrites what names it.
   */
  rename(id: string, name: string, now: number): StoredConnection | null;
  /** Replaces only the secret, in one statement (a rotated OAuth refresh token must never be half-saved). */
  setSecret(id: string, secret: ConnectionSecret, now: number): boolean;
  /** Merges keys into providerSpecificData (e.g. an organisation UUID learned at run time). */
  mergeProviderData(id: string, patch: Record<string, unknown>, now: number): boolean;
  /** EGRESS: what the IP probe saw this connection leave from; null clears it (probe failed or proxy changed). */
  recordEgressIp(id: string, ip: string | null, at: number): boolean;
}

interface ConnectionRow {
  id: string;
  name: string;
  kind: string;
  base_url: string | null;
  secret_sealed: string | null;
  secret_hint: string | null;
  models_json: string;
  model_aliases_json: string;
  priority: number;
  enabled: number;
  max_concurrent: number | null;
  disable_cooling: number;
  provider_specific_json: string;
  rate_limit_overrides_json: string;
  outbound_proxy_url: string | null;
  egress_ip: string | null;
  egress_ip_at: number | null;
  accept_translated: number;
  responses_api: number | null;
  created_at: number;
  updated_at: number;
}

/** QUEUE-7: the stored overrides, validated on read; a hand-edited bad row reads as none, empty as absent. */
function overridesOf(json: string): { rateLimitOverrides?: RateLimitOverrides } {
  const parsed = rateLimitOverridesSchema.safeParse(parseJsonObject(json));
  if (!parsed.success || Object.keys(parsed.data).length === 0) return {};
  return { rateLimitOverrides: parsed.data };
}

/**
 * Issue 12: the translation switches, present in the view only when they differ from the default
 * (accept translated requests; Responses API by kind), as the view's optional fields promise.
 */
function translationOf(row: Pick<ConnectionRow, 'accept_translated' | 'responses_api'>): {
  acceptTranslated?: boolean;
  responsesApi?: boolean;
} {
  return {
    ...(row.accept_translated === 0 ? { acceptTranslated: false } : {}),
    ...(row.responses_api === null ? {} : { responsesApi: row.responses_api === 1 }),
  };
}

/** Drops the secret: what the renderer, events and logs may see. */
export function toView(stored: StoredConnection): ConnectionView {
  const { secret: _secret, outboundProxy: _proxy, ...view } = stored;
  return view;
}

/** Hint shown in lists so a person can tell two keys apart without seeing either. */
function hintOf(secret: ConnectionSecret): string {
  return hintSecret(secret.type === 'api-key' ? secret.apiKey : secret.accessToken);
}

/**
 * A secret sealed by another store (safeStorage vs key file) or a lost key file cannot be opened:
 * the connection then reads as having no secret (excluded as `no_secret`) instead of taking the
 * whole app down; entering the credential again repairs it.
 */
function openSecret(box: SecretBox, sealed: string): ConnectionSecret | null {
  try {
    const parsed = connectionSecretSchema.safeParse(JSON.parse(box.open(sealed)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Creates the repository, preparing every statement once. */
export function createConnectionsRepo(db: Database, box: SecretBox, newId: () => string = randomUUID): ConnectionsRepo {
  const selectAll = db.prepare<[], ConnectionRow>('SELECT * FROM connections ORDER BY priority, name');
  const selectByName = db.prepare<[string], ConnectionRow>('SELECT * FROM connections WHERE name = ?');
  const selectById = db.prepare<[string], ConnectionRow>('SELECT * FROM connections WHERE id = ?');
  const deleteByName = db.prepare<[string]>('DELETE FROM connections WHERE name = ?');
  const upsertRow = db.prepare<[ConnectionRow]>(`
    INSERT INTO connections (id, name, kind, base_url, secret_sealed, secret_hint, models_json, model_aliases_json,
      priority, enabled, max_concurrent, disable_cooling, provider_specific_json, rate_limit_overrides_json,
      outbound_proxy_url, egress_ip, egress_ip_at, accept_translated, responses_api, created_at, updated_at)
    VALUES (@id, @name, @kind, @base_url, @secret_sealed, @secret_hint, @models_json, @model_aliases_json,
      @priority, @enabled, @max_concurrent, @disable_cooling, @provider_specific_json, @rate_limit_overrides_json,
      @outbound_proxy_url, @egress_ip, @egress_ip_at, @accept_translated, @responses_api, @created_at, @updated_at)
    ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url,
      secret_sealed = excluded.secret_sealed, secret_hint = excluded.secret_hint, models_json = excluded.models_json,
      model_aliases_json = excluded.model_aliases_json, priority = excluded.priority, enabled = excluded.enabled,
      max_concurrent = excluded.max_concurrent, disable_cooling = excluded.disable_cooling,
      provider_specific_json = excluded.provider_specific_json,
      rate_limit_overrides_json = excluded.rate_limit_overrides_json,
      outbound_proxy_url = excluded.outbound_proxy_url, egress_ip = excluded.egress_ip,
      egress_ip_at = excluded.egress_ip_at, accept_translated = excluded.accept_translated,
      responses_api = excluded.responses_api, updated_at = excluded.updated_at`);
  const updateEgressIp = db.prepare<[string | null, number, string]>(
    'UPDATE connections SET egress_ip = ?, egress_ip_at = ? WHERE id = ?',
  );

  const updateSecret = db.prepare<[string, string, number, string]>(
    'UPDATE connections SET secret_sealed = ?, secret_hint = ?, updated_at = ? WHERE id = ?',
  );
  const updateName = db.prepare<[string, number, string]>(
    'UPDATE connections SET name = ?, updated_at = ? WHERE id = ?',
  );
  const updateProviderData = db.prepare<[string, number, string]>(
    'UPDATE connections SET provider_specific_json = ?, updated_at = ? WHERE id = ?',
  );

  const fromRow = (row: ConnectionRow): StoredConnection => {
    const kind = row.kind as ConnectionKind; // guarded by the CHECK constraint on the column
    const secret = row.secret_sealed === null ? null : openSecret(box, row.secret_sealed);
    return {
      id: row.id,
      name: row.name,
      kind,
      baseUrl: row.base_url,
      effectiveBaseUrl: effectiveBaseUrl(kind, row.base_url),
      models: parseJsonArray(row.models_json).filter((m): m is string => typeof m === 'string'),
      modelAliases: stringRecord(parseJsonObject(row.model_aliases_json)),
      priority: row.priority,
      enabled: row.enabled === 1,
      maxConcurrent: row.max_concurrent,
      disableCooling: row.disable_cooling === 1,
      providerSpecificData: parseJsonObject(row.provider_specific_json),
      ...overridesOf(row.rate_limit_overrides_json),
      ...(row.outbound_proxy_url === null
        ? {}
        : { outboundProxyUrl: maskProxyUrl(row.outbound_proxy_url), outboundProxy: row.outbound_proxy_url }),
      ...(row.egress_ip === null ? {} : { egressIp: row.egress_ip }),
      ...(row.egress_ip_at === null ? {} : { egressIpAt: row.egress_ip_at }),
      ...translationOf(row),
      secretHint: row.secret_hint,
      secret,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  };

  const upsert = db.transaction((draft: ConnectionDraft, now: number): StoredConnection => {
    const existing = selectByName.get(draft.name);
    const sealed = draft.secret ? box.seal(JSON.stringify(draft.secret)) : (existing?.secret_sealed ?? null);
    const hint = draft.secret ? hintOf(draft.secret) : (existing?.secret_hint ?? null);
    const proxy = proxyToStore(draft.outboundProxyUrl ?? null, existing?.outbound_proxy_url ?? null);
    // A new proxy means a new way out: the recorded egress IP no longer describes this connection.
    const sameProxy = proxy === (existing?.outbound_proxy_url ?? null);
    upsertRow.run({
      id: existing?.id ?? newId(),
      name: draft.name,
      kind: draft.kind,
      base_url: draft.baseUrl ?? null,
      secret_sealed: sealed,
      secret_hint: hint,
      models_json: JSON.stringify(draft.models),
      model_aliases_json: JSON.stringify(draft.modelAliases),
      priority: draft.priority,
      enabled: draft.enabled ? 1 : 0,
      max_concurrent: draft.maxConcurrent,
      disable_cooling: draft.disableCooling ? 1 : 0,
      provider_specific_json: JSON.stringify(draft.providerSpecificData),
      rate_limit_overrides_json: JSON.stringify(draft.rateLimitOverrides ?? {}),
      outbound_proxy_url: proxy,
      egress_ip: sameProxy ? (existing?.egress_ip ?? null) : null,
      egress_ip_at: sameProxy ? (existing?.egress_ip_at ?? null) : null,
      // Issue 12: absent means "accept" and "by kind", as the contract reads them.
      accept_translated: draft.acceptTranslated === false ? 0 : 1,
      responses_api:
        draft.responsesApi === undefined || draft.responsesApi === null ? null : draft.responsesApi ? 1 : 0,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    const saved = selectByName.get(draft.name);
    if (!saved) throw new Error(`connection ${draft.name} vanished inside its own transaction`);
    return fromRow(saved);
  });

  return {
    list: () => selectAll.all().map(fromRow),
    getByName: (name) => {
      const row = selectByName.get(name);
      return row ? fromRow(row) : null;
    },
    getById: (id) => {
      const row = selectById.get(id);
      return row ? fromRow(row) : null;
    },
    upsert: (draft, now) => upsert(draft, now),
    remove: (name) => deleteByName.run(name).changes > 0,
    rename(id, name, now) {
      if (updateName.run(name, now, id).changes === 0) return null;
      const row = selectById.get(id);
      return row ? fromRow(row) : null;
    },
    setSecret: (id, secret, now) =>
      updateSecret.run(box.seal(JSON.stringify(secret)), hintOf(secret), now, id).changes > 0,
    mergeProviderData(id, patch, now) {
      const row = selectById.get(id);
      if (!row) return false;
      const merged = { ...parseJsonObject(row.provider_specific_json), ...patch };
      return updateProviderData.run(JSON.stringify(merged), now, id).changes > 0;
    },
    recordEgressIp: (id, ip, at) => updateEgressIp.run(ip, at, id).changes > 0,
  };
}

/** The editor sends back the masked URL it was shown; that means "keep the stored one", credentials included. */
function proxyToStore(submitted: string | null, stored: string | null): string | null {
  if (submitted === null) return null;
  if (stored !== null && submitted === maskProxyUrl(stored)) return stored;
  return submitted;
}

function stringRecord(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}
