import { z } from 'zod';

/** Settings the core owns; each field validated and clamped by its range, defaults applied on read. */
const fields = {
  /** Wait for an upstream's response headers on a streaming request; past it the next target is tried. */
  streamHeadersTimeoutMs: z.number().int().min(1_000).max(600_000),
  /** The same for a non-streaming request, whose headers only come once the whole answer is written. */
  responseTimeoutMs: z.number().int().min(1_000).max(3_600_000),
  /** Largest request body the proxy accepts. */
  maxBodyBytes: z.number().int().min(1_024).max(64 * 1024 * 1024),
  requestLogMaxRows: z.number().int().min(100).max(1_000_000),
  requestLogMaxAgeDays: z.number().int().min(1).max(365),
  /** A paused proxy answers 503 to every model request until resumed. */
  paused: z.boolean(),
  /** Claude OAuth token endpoint and client id: facts of the current Claude Code client, kept as settings. */
  claudeOAuthTokenUrl: z.string().url(),
  claudeOAuthClientId: z.string().min(1).max(200),
};

export const settingsPatchSchema = z.object(fields).partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
export type Settings = { [K in keyof typeof fields]: z.infer<(typeof fields)[K]> };

export const DEFAULT_SETTINGS: Settings = {
  streamHeadersTimeoutMs: 60_000,
  responseTimeoutMs: 600_000,
  maxBodyBytes: 32 * 1024 * 1024,
  requestLogMaxRows: 50_000,
  requestLogMaxAgeDays: 30,
  paused: false,
  claudeOAuthTokenUrl: 'https://platform.claude.com/v1/oauth/token',
  claudeOAuthClientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
};
