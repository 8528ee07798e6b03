import { z } from 'zod';
import { DEFAULT_SESSION_AFFINITY_TTL_MS, sessionAffinityTtlMsSchema } from './affinity';
import { quotaStoreSettingsSchema } from './quota';

/** Settings the core owns; each field validated and clamped by its range, defaults applied on read. */
const fields = {
  /** Wait for an upstream's response headers on a streaming request; past it the next target is tried. */
  streamHeadersTimeoutMs: z.number().int().min(1_000).max(600_000),
  /** The same for a non-streaming request, whose headers only come once the whole answer is written. */
  responseTimeoutMs: z.number().int().min(1_000).max(3_600_000),
  /** Once an upstream's body flows, the longest silence between two chunks before the attempt is cut. */
  upstreamIdleTimeoutMs: z.number().int().min(1_000).max(3_600_000),
  /** Longest wait for an upstream error body once its status is in (it is read whole to classify it). */
  errorBodyTimeoutMs: z.number().int().min(1_000).max(120_000),
  /** A client that stops sending its request body for this long gets 408 and its socket closed. */
  clientIdleTimeoutMs: z.number().int().min(1_000).max(600_000),
  /** The whole request (headers and body) must arrive within this; past it, 408 and close. */
  clientRequestTimeoutMs: z.number().int().min(5_000).max(3_600_000),
  /** Open client sockets at once; past it new connections are closed at once (a local tool needs few). */
  maxClientSockets: z.number().int().min(16).max(65_536),
  /** How long a session keeps its connection after its last request (AFF-3/8); 0 turns affinity off. */
  sessionAffinityTtlMs: sessionAffinityTtlMsSchema,
  /**
   * Issue 24 §3: a session whose pinned account answers a rate limit this short or shorter waits for
   * it instead of moving, while its prompt cache there is warm; 0 always moves at once.
   */
  cacheWaitMs: z.number().int().min(0).max(300_000),
  /** Largest request body the proxy accepts. */
  maxBodyBytes: z
    .number()
    .int()
    .min(1_024)
    .max(64 * 1024 * 1024),
  requestLogMaxRows: z.number().int().min(100).max(1_000_000),
  requestLogMaxAgeDays: z.number().int().min(1).max(365),
  /** A paused proxy answers 503 to every model request until resumed. */
  paused: z.boolean(),
  /**
   * The quota engine's store and thresholds (QDRV-3, QENV-2); a null or missing field falls back to
   * its QUOTA_* environment variable, then the default. Written whole: a patch replaces the object.
   */
  quotaStore: quotaStoreSettingsSchema,
  /**
   * `round-robin` combos: picks in a row the most recently picked target keeps (picks a session pin
   * decided do not count) before the least recently picked one is next; 1 = rotate on every pick.
   */
  stickyRoundRobinLimit: z.number().int().min(1).max(100),
  /** ROUTE-5 runtime override of LEEWAY_EMERGENCY_FALLBACK (Settings › Feature flags); null = the environment decides. */
  emergencyFallback: z.boolean().nullable(),
  /** Claude OAuth token endpoint and client id: facts of the current Claude Code client, kept as settings. */
  claudeOAuthTokenUrl: z.string().url(),
  claudeOAuthClientId: z.string().min(1).max(200),
  /**
   * EGRESS: a URL answering with the caller's public IP (plain text or JSON `{ "ip": … }`), asked
   * through each connection's own way out; null (the default) never probes, so no IP is recorded.
   * http(s) only: the probe is an HTTP GET.
   */
  egressIpProbeUrl: z.url({ protocol: /^https?$/, message: 'Enter an http:// or https:// URL' }).nullable(),
};

export const settingsPatchSchema = z.object(fields).partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
export type Settings = { [K in keyof typeof fields]: z.infer<(typeof fields)[K]> };

export const DEFAULT_SETTINGS: Settings = {
  streamHeadersTimeoutMs: 60_000,
  responseTimeoutMs: 600_000,
  upstreamIdleTimeoutMs: 300_000,
  errorBodyTimeoutMs: 30_000,
  clientIdleTimeoutMs: 30_000,
  clientRequestTimeoutMs: 300_000,
  maxClientSockets: 1_024,
  sessionAffinityTtlMs: DEFAULT_SESSION_AFFINITY_TTL_MS,
  cacheWaitMs: 20_000,
  maxBodyBytes: 32 * 1024 * 1024,
  requestLogMaxRows: 50_000,
  requestLogMaxAgeDays: 30,
  paused: false,
  quotaStore: {},
  stickyRoundRobinLimit: 1,
  emergencyFallback: null,
  claudeOAuthTokenUrl: 'https://platform.claude.com/v1/oauth/token',
  claudeOAuthClientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
  egressIpProbeUrl: null,
};
