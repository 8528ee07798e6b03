import { z } from 'zod';
import { providerSpecificDataSchema, type ProviderSpecificData } from './provider-specific-data';

/** Upstream kinds Leeway can talk to; each maps to one adapter in src-main/providers. */
export const CONNECTION_KINDS = ['anthropic', 'claude-oauth', 'openai', 'openai-compatible', 'gemini'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** The wire format a connection accepts (and a client's family: Responses clients are `openai`). */
export type ApiFormat = 'anthropic' | 'openai' | 'gemini';

/**
 * What a client speaks on the wire: Anthropic Messages, OpenAI Chat Completions or the OpenAI
 * Responses API (codex), or Google's Gemini API (issue 23). A connection speaks its ApiFormat, and `responses` too when it serves
 * the Responses API natively (see `servesResponsesNatively`); `translate/` bridges the rest.
 */
export type WireFormat = 'anthropic' | 'openai' | 'responses' | 'gemini';

/** Whether a connection takes `POST /responses` itself: OpenAI's own API does; compatible ones only when marked. */
export function servesResponsesNatively(kind: ConnectionKind, responsesApi: boolean | null | undefined): boolean {
  if (responsesApi !== null && responsesApi !== undefined) return responsesApi && apiFormatOf(kind) === 'openai';
  return kind === 'openai';
}

export function apiFormatOf(kind: ConnectionKind): ApiFormat {
  switch (kind) {
    case 'anthropic':
    case 'claude-oauth':
      return 'anthropic';
    case 'openai':
    case 'openai-compatible':
      return 'openai';
    case 'gemini':
      return 'gemini';
  }
}

/** Known default base URLs; `openai-compatible` has none and must be given one. */
export const DEFAULT_BASE_URLS: Readonly<Record<ConnectionKind, string | null>> = {
  anthropic: 'https://api.anthropic.com',
  'claude-oauth': 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': null,
  // Gemini-compatible servers take their own base URL (issue 23 §1).
  gemini: 'https://generativelanguage.googleapis.com',
};

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const name = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64, 'is at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'may contain letters, digits, ".", "_" and "-" only');

export const connectionNameSchema = name;

/** Secret material of a connection, never sent back to the renderer. */
export const apiKeySecretSchema = z.object({ type: z.literal('api-key'), apiKey: z.string().min(1) });
export const oauthSecretSchema = z.object({
  type: z.literal('oauth'),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.number().int().nonnegative().optional(),
});
export const connectionSecretSchema = z.discriminatedUnion('type', [apiKeySecretSchema, oauthSecretSchema]);
export type ConnectionSecret = z.infer<typeof connectionSecretSchema>;

/**
 * QUEUE-7: a connection's own request-queue budgets, above the stored settings and the env; a
 * missing or 0 value means "no override" (the reference's rule), so 0 is accepted but inert.
 */
export const rateLimitOverridesSchema = z
  .object({
    maxWaitMs: z.number().int().min(0).max(86_400_000).optional(),
    executionMaxWaitMs: z.number().int().min(0).max(86_400_000).optional(),
    maxQueueDepth: z.number().int().min(0).max(100_000).optional(),
  })
  .strict();
export type RateLimitOverrides = z.infer<typeof rateLimitOverridesSchema>;

/** What the UI, the config file and the contract may set on a connection. */
export const connectionInputSchema = z
  .object({
    name,
    kind: z.enum(CONNECTION_KINDS),
    baseUrl: httpUrl.nullable().optional(),
    /** Omitted on update means "keep the stored secret". */
    secret: connectionSecretSchema.optional(),
    models: z.array(z.string().trim().min(1)).max(500).default([]),
    modelAliases: z.record(z.string().min(1), z.string().min(1)).default({}),
    priority: z.number().int().min(0).max(1000).default(1),
    enabled: z.boolean().default(true),
    maxConcurrent: z.number().int().min(1).max(1000).nullable().default(null),
    disableCooling: z.boolean().default(false),
    providerSpecificData: providerSpecificDataSchema.default({}),
    rateLimitOverrides: rateLimitOverridesSchema.optional(),
    /**
     * EGRESS: this connection's outbound HTTP proxy (`http://user:pass@host:port`); null or absent
     * sends directly. Sending back the masked form a view shows keeps the stored URL.
     */
    outboundProxyUrl: httpUrl.nullable().optional(),
    /** Issue 12: whether requests of the other wire format may be translated onto this connection (absent: yes). */
    acceptTranslated: z.boolean().optional(),
    /** Issue 12: whether this (OpenAI-format) connection serves the Responses API itself; null: by kind (only `openai`). */
    responsesApi: z.boolean().nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'openai-compatible' && !value.baseUrl) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'is required for openai-compatible connections' });
    }
    if (value.secret) {
      const wantsOauth = value.kind === 'claude-oauth';
      if (wantsOauth !== (value.secret.type === 'oauth')) {
        ctx.addIssue({
          code: 'custom',
          path: ['secret'],
          message: wantsOauth
            ? 'claude-oauth connections take an accessToken'
            : `${value.kind} connections take an apiKey`,
        });
      }
    }
  });
export type ConnectionInput = z.input<typeof connectionInputSchema>;
export type ConnectionDraft = z.output<typeof connectionInputSchema>;

/** A connection as every reader outside the core sees it: secrets reduced to a hint. */
export interface ConnectionView {
  id: string;
  name: string;
  kind: ConnectionKind;
  baseUrl: string | null;
  effectiveBaseUrl: string;
  models: string[];
  modelAliases: Record<string, string>;
  priority: number;
  enabled: boolean;
  maxConcurrent: number | null;
  disableCooling: boolean;
  providerSpecificData: ProviderSpecificData;
  /** QUEUE-7: this connection's queue budgets over the settings (absent: none). */
  rateLimitOverrides?: RateLimitOverrides;
  /** EGRESS: the outbound proxy with any userinfo masked (maskProxyUrl); absent: direct. */
  outboundProxyUrl?: string;
  /** EGRESS: the IP the probe last saw this connection leave from, and when (absent: never probed). */
  egressIp?: string;
  egressIpAt?: number;
  /** Issue 12: translated requests of the other format may use it (absent: true). */
  acceptTranslated?: boolean;
  /** Issue 12: serves `POST /responses` natively; absent or null: by kind. */
  responsesApi?: boolean | null;
  /** e.g. "sk-ant-…9xQa"; never the secret itself. */
  secretHint: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Base URL a request will use: the override, else the kind's default. */
export function effectiveBaseUrl(kind: ConnectionKind, baseUrl: string | null | undefined): string {
  const value = baseUrl ?? DEFAULT_BASE_URLS[kind];
  if (!value) throw new Error(`no base URL for ${kind}`);
  return value.replace(/\/+$/, '');
}

/** Shows the shape of a secret without revealing it: enough to tell two keys apart. */
export function hintSecret(secret: string): string {
  // Short secrets show nothing: a few characters of a 13-character key are a real part of it.
  if (secret.length < 24) return '…';
  return `${secret.slice(0, 6)}…${secret.slice(-4)}`;
}

/** A proxy URL fit for the renderer: user and password become `***`, the host stays readable. */
export function maskProxyUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === '' && url.password === '') return url.toString().replace(/\/$/, '');
    url.username = '***';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '***';
  }
}
