import type { ConnectionSecret } from '../../../src-shared/domain/connection';
import type { FetchJson } from './reset/fetch-json';
import { refreshClaudeToken } from './token-refresh';

/** Refresh this long before expiry, so a long stream never starts on a token about to die. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** After a refresh failed for a transient reason, requests wait this long before asking again. */
export const REFRESH_RETRY_AFTER_MS = 30_000;

type OAuthSecret = Extract<ConnectionSecret, { type: 'oauth' }>;

export type FreshToken =
  | { ok: true; secret: OAuthSecret; refreshed: boolean }
  | { ok: false; reason: 'needs_reauth' | 'failed'; message: string };

export interface OAuthTokenDeps {
  /** The stored secret as it is now in SQLite (re-read: another refresh may have rotated it). */
  readSecret(connectionId: string): OAuthSecret | null;
  /** Saves rotated tokens in one write; the catalog is rebuilt by the caller's hook. */
  saveSecret(connectionId: string, secret: OAuthSecret): void;
  onNeedsReauth(connectionId: string, message: string): void;
  fetchJson: FetchJson;
  tokenUrl(connectionId: string): string;
  clientId(): string;
  scopes(connectionId: string): readonly string[];
  now(): number;
  /** Team-wide ownership of refresh-token rotation (issue 24 §4); absent: this instance decides alone. */
  ownership?: RefreshOwnership;
}

/** Who may rotate a connection's refresh token when several instances share it (team/refresh-lock.ts). */
export interface RefreshOwnership {
  /** The lease, or null while another instance rotates this connection's token; rejects when the team is unreachable. */
  acquire(connectionId: string): Promise<{ release(): Promise<void> } | null>;
}

/** Another instance holds the refresh: this one does not rotate the same token. */
const NOT_OWNER = 'another Leeway instance of the team is refreshing this token; try again shortly';

/**
 * Keeps Claude subscription tokens alive: refreshes before expiry with one request in flight per
 * connection however many requests ask at once, and turns `invalid_grant` into needs_reauth once.
 */
export function createOAuthTokens(deps: OAuthTokenDeps) {
  const inflight = new Map<string, Promise<FreshToken>>();
  // A token endpoint that is down must not be hammered by every request: one try per interval.
  const failedAt = new Map<string, { at: number; message: string }>();

  async function refresh(connectionId: string, usedToken: string | null): Promise<FreshToken> {
    const stored = deps.readSecret(connectionId);
    if (!stored) return { ok: false, reason: 'failed', message: 'no OAuth credential stored' };
    const now = deps.now();
    // Someone else already rotated the token this request used: take theirs instead of refreshing again.
    if (usedToken !== null && stored.accessToken !== usedToken) return { ok: true, secret: stored, refreshed: false };
    if (usedToken === null && (stored.expiresAt === undefined || stored.expiresAt - now > REFRESH_MARGIN_MS)) {
      return { ok: true, secret: stored, refreshed: false };
    }
    if (!stored.refreshToken) {
      const expired = stored.expiresAt !== undefined && stored.expiresAt <= now;
      if (!expired && usedToken === null) return { ok: true, secret: stored, refreshed: false };
      const message = 'the access token expired and there is no refresh token; sign in again and re-import';
      deps.onNeedsReauth(connectionId, message);
      return { ok: false, reason: 'needs_reauth', message };
    }
    const recent = failedAt.get(connectionId);
    if (recent && now - recent.at < REFRESH_RETRY_AFTER_MS) {
      const stillValid = stored.expiresAt === undefined || stored.expiresAt > now;
      return stillValid && usedToken === null
        ? { ok: true, secret: stored, refreshed: false }
        : { ok: false, reason: 'failed', message: recent.message };
    }
    // Redis down: each instance keeps working on its own (the lock cannot be asked), as before teams.
    const lease = deps.ownership ? await deps.ownership.acquire(connectionId).catch(() => undefined) : undefined;
    if (lease === null) {
      const stillValid = stored.expiresAt === undefined || stored.expiresAt > now;
      return stillValid && usedToken === null
        ? { ok: true, secret: stored, refreshed: false }
        : { ok: false, reason: 'failed', message: NOT_OWNER };
    }
    try {
      return await rotate(connectionId, stored, stored.refreshToken, usedToken);
    } finally {
      await lease?.release().catch(() => undefined);
    }
  }

  async function rotate(
    connectionId: string,
    stored: OAuthSecret,
    refreshToken: string,
    usedToken: string | null,
  ): Promise<FreshToken> {
    const result = await refreshClaudeToken(deps.fetchJson, {
      tokenUrl: deps.tokenUrl(connectionId),
      clientId: deps.clientId(),
      refreshToken,
      scopes: deps.scopes(connectionId),
      now: deps.now(),
    });
    switch (result.kind) {
      case 'refreshed': {
        failedAt.delete(connectionId);
        const secret: OAuthSecret = {
          type: 'oauth',
          accessToken: result.accessToken,
          refreshToken: result.refreshToken,
          expiresAt: result.expiresAt,
        };
        deps.saveSecret(connectionId, secret);
        return { ok: true, secret, refreshed: true };
      }
      case 'invalid_grant':
        deps.onNeedsReauth(connectionId, result.message);
        return { ok: false, reason: 'needs_reauth', message: result.message };
      case 'failed': {
        failedAt.set(connectionId, { at: deps.now(), message: result.message });
        // A token that still works is better than none while the token endpoint is unwell.
        const stillValid = stored.expiresAt === undefined || stored.expiresAt > deps.now();
        return stillValid && usedToken === null
          ? { ok: true, secret: stored, refreshed: false }
          : { ok: false, reason: 'failed', message: result.message };
      }
    }
  }

  return {
    /**
     * A token good for the next request. `usedToken` set means the upstream just refused that token
     * (401): refresh even if it looks unexpired, unless it was already replaced.
     */
    ensureFresh(connectionId: string, usedToken: string | null = null): Promise<FreshToken> {
      // One flight per connection: a 401 retry and an expiry refresh racing each other share it.
      const running = inflight.get(connectionId);
      if (running) return running;
      const promise = refresh(connectionId, usedToken).finally(() => {
        inflight.delete(connectionId);
      });
      inflight.set(connectionId, promise);
      return promise;
    },
    /** Whether a token is due: the cheap check the hot path makes before awaiting anything. */
    isDue(secret: OAuthSecret, now: number): boolean {
      return secret.expiresAt !== undefined && secret.expiresAt - now <= REFRESH_MARGIN_MS;
    },
  };
}

export type OAuthTokens = ReturnType<typeof createOAuthTokens>;
