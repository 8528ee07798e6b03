import type { FetchJson } from './reset/fetch-json';

/** What Claude Code itself uses; both are settings so a change upstream needs no release. */
export const DEFAULT_CLAUDE_TOKEN_URL = 'https://platform.claude.com/v1/oauth/token';
export const DEFAULT_CLAUDE_CLIENT_ID = '9d1c250a-e61b-44d9-88ed-5944d1962f5e';
const DEFAULT_SCOPE = 'user:inference user:profile';
const REFRESH_TIMEOUT_MS = 20_000;

export type RefreshResult =
  | { kind: 'refreshed'; accessToken: string; refreshToken: string; expiresAt: number }
  /** The refresh token is dead: only a new sign-in helps (needs_reauth). */
  | { kind: 'invalid_grant'; message: string }
  /** Anything transient: keep the old token and try again later. */
  | { kind: 'failed'; message: string };

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * Trades a refresh token for a new access token (`grant_type: refresh_token`, JSON body as Claude
 * Code sends it). A rotated refresh token in the answer replaces the old one; absent, the old one stays.
 */
export async function refreshClaudeToken(
  fetchJson: FetchJson,
  input: { tokenUrl: string; clientId: string; refreshToken: string; scopes: readonly string[]; now: number },
): Promise<RefreshResult> {
  const answer = await fetchJson({
    method: 'POST',
    url: input.tokenUrl,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: {
      grant_type: 'refresh_token',
      refresh_token: input.refreshToken,
      client_id: input.clientId,
      scope: input.scopes.length > 0 ? input.scopes.join(' ') : DEFAULT_SCOPE,
    },
    timeoutMs: REFRESH_TIMEOUT_MS,
  });
  if ('error' in answer) return { kind: 'failed', message: `token endpoint ${answer.error}` };
  const json = (typeof answer.json === 'object' && answer.json !== null ? answer.json : {}) as Record<string, unknown>;
  if (answer.status >= 200 && answer.status < 300) {
    const accessToken = str(json.access_token);
    if (!accessToken) return { kind: 'failed', message: 'token endpoint answered without access_token' };
    const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
    return {
      kind: 'refreshed',
      accessToken,
      refreshToken: str(json.refresh_token) ?? input.refreshToken,
      expiresAt: input.now + expiresIn * 1000,
    };
  }
  const error =
    str(json.error) ??
    (typeof json.error === 'object' && json.error !== null ? str((json.error as Record<string, unknown>).type) : null);
  if (error === 'invalid_grant') {
    return {
      kind: 'invalid_grant',
      message: 'refresh token refused (invalid_grant); sign in again with Claude Code and re-import',
    };
  }
  return { kind: 'failed', message: `token endpoint answered ${answer.status}${error ? ` (${error})` : ''}` };
}
