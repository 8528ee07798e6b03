import { z } from 'zod';
import { comboInputSchema } from '../../src-shared/domain/combo';
import { CONNECTION_KINDS, connectionInputSchema, type ConnectionDraft } from '../../src-shared/domain/connection';
import { localKeyInputSchema } from '../../src-shared/domain/local-key';
import { routeSchema } from '../../src-shared/domain/route';
import { capabilitiesOf } from '../kernel/provider-capabilities';

/**
 * A connection as a person writes it in the config file: secrets as flat fields, the Claude
 * opt-ins as top-level booleans. Converted to the contract's ConnectionDraft before use.
 */
const configConnectionSchema = z
  .object({
    name: z.string(),
    kind: z.enum(CONNECTION_KINDS),
    baseUrl: z.string().optional(),
    apiKey: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    expiresAt: z.number().int().nonnegative().optional(),
    models: z.array(z.string()).optional(),
    modelAliases: z.record(z.string(), z.string()).optional(),
    priority: z.number().optional(),
    enabled: z.boolean().optional(),
    maxConcurrent: z.number().nullable().optional(),
    disableCooling: z.boolean().optional(),
    lowPriorityMode: z.boolean().optional(),
    autoLimitReset: z.boolean().optional(),
    organizationUUID: z.string().optional(),
    providerSpecificData: z.record(z.string(), z.unknown()).optional(),
    /** QUEUE-7: the connection's own queue budgets; checked by the contract's schema on conversion. */
    rateLimitOverrides: z.record(z.string(), z.unknown()).optional(),
    /** EGRESS: an outbound HTTP proxy for this connection's traffic; checked on conversion. */
    outboundProxyUrl: z.string().nullable().optional(),
    /** Issue 12: false keeps requests of the other wire format off this connection (absent: accept). */
    acceptTranslated: z.boolean().optional(),
    /** Issue 12: true serves POST /responses natively, false translates it; null or absent: by kind. */
    responsesApi: z.boolean().nullable().optional(),
  })
  .strict();

/** A key as the file gives it: the plain key is required (the file is how it reaches the clients). */
const configKeySchema = z
  .object({
    name: localKeyInputSchema.shape.name,
    key: z.string().min(12, 'is at least 12 characters').max(256),
    scopes: localKeyInputSchema.shape.scopes,
    allowedConnections: localKeyInputSchema.shape.allowedConnections,
  })
  .strict();

/** The file's outline; each entry is then checked on its own so every problem is reported at once. */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    connections: z.array(z.unknown()).default([]),
    keys: z.array(z.unknown()).default([]),
    combos: z.array(z.unknown()).default([]),
    /** Absent keeps the stored routes (edited in the dashboard); present replaces them, in order. */
    routes: z.array(z.unknown()).max(200).optional(),
    /** Quota pools (issue 10 §5), upserted by name; keys and connections by name. */
    pools: z.array(z.unknown()).max(200).default([]),
    /** Manual plan overrides by connection name (QPLAN-1). */
    plans: z.array(z.unknown()).max(200).default([]),
  })
  .loose();

export const CONFIG_ROOT_KEYS = new Set(['$schema', 'connections', 'keys', 'combos', 'routes', 'pools', 'plans']);

export { configConnectionSchema, configKeySchema };
export const configComboSchema = comboInputSchema;
export const configRouteSchema = routeSchema;

export type ConfigConnection = z.infer<typeof configConnectionSchema>;

/** Flat config fields → the draft the repository stores (validated by the contract's own schema). */
export function toConnectionInput(c: ConfigConnection): unknown {
  const psd: Record<string, unknown> = { ...(c.providerSpecificData ?? {}) };
  if (c.lowPriorityMode !== undefined) psd.lowPriorityMode = c.lowPriorityMode;
  if (c.autoLimitReset !== undefined) psd.autoLimitReset = c.autoLimitReset;
  if (c.organizationUUID !== undefined) psd.organizationUUID = c.organizationUUID;
  const secret = capabilitiesOf(c.kind).usesOAuth
    ? c.accessToken === undefined
      ? undefined
      : { type: 'oauth', accessToken: c.accessToken, refreshToken: c.refreshToken, expiresAt: c.expiresAt }
    : c.apiKey === undefined
      ? undefined
      : { type: 'api-key', apiKey: c.apiKey };
  return {
    name: c.name,
    kind: c.kind,
    baseUrl: c.baseUrl ?? null,
    secret,
    models: c.models,
    modelAliases: c.modelAliases,
    priority: c.priority,
    enabled: c.enabled,
    maxConcurrent: c.maxConcurrent,
    disableCooling: c.disableCooling,
    providerSpecificData: psd,
    ...(c.rateLimitOverrides === undefined ? {} : { rateLimitOverrides: c.rateLimitOverrides }),
    ...(c.outboundProxyUrl === undefined ? {} : { outboundProxyUrl: c.outboundProxyUrl }),
    ...(c.acceptTranslated === undefined ? {} : { acceptTranslated: c.acceptTranslated }),
    ...(c.responsesApi === undefined ? {} : { responsesApi: c.responsesApi }),
  };
}

export function parseConnectionInput(value: unknown) {
  return connectionInputSchema.safeParse(value) as z.ZodSafeParseResult<ConnectionDraft>;
}
