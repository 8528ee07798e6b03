/**
 * The account side of the fake Claude service: the OAuth token endpoint, the usage status with its
 * `juniper_tide` block, the reset claim and the bootstrap, each shaped as Claude Code sees them.
 */
import type { ResponsePlan } from '../fake-upstream-errors';
import { field } from '../fake-upstream-responses';
import type { ClaimScript, FakeTokens, RecordedRequest, ResetOffer, TokenScript } from './fake-claude-types';

const WEEK_MS = 7 * 24 * 60 * 60_000;

/** Mutable account state shared with the messages route. */
export interface AccountState {
  name: string;
  organizationUuid: string;
  tokens: FakeTokens;
  token: TokenScript;
  offer: ResetOffer;
  claim: ClaimScript;
  /** Called when a claim answers `reset`: the wall lifts. */
  onReset(): void;
  now(): number;
}

export function jsonPlan(status: number, body: unknown, headers: Record<string, string> = {}): ResponsePlan {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers },
    chunks: [text],
    streaming: false,
  };
}

/**
 * Token `n` of a kind, shaped like Claude's (`sk-ant-oat01-…` / `sk-ant-ort01-…`, so the lane sees a
 * subscription token) and ending in its number, so secret hints tell generations apart.
 */
export function fakeToken(kind: 'access' | 'refresh', name: string, n: number): string {
  return `sk-ant-${kind === 'access' ? 'oat01' : 'ort01'}-fake-${name}-${kind}-${'x'.repeat(16)}-${String(n).padStart(4, '0')}`;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The bearer token of a request, or null. */
export function bearerOf(req: RecordedRequest): string | null {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
}

/** Whether the request carries the current access token (a revoked or rotated one is stale). */
export function hasCurrentToken(state: AccountState, req: RecordedRequest): boolean {
  const token = bearerOf(req);
  return token !== null && state.tokens.accessToken !== null && token === state.tokens.accessToken;
}

export function unauthorized(
  message = 'OAuth token has expired. Please obtain a new token or refresh your existing token.',
): ResponsePlan {
  return jsonPlan(401, { type: 'error', error: { type: 'authentication_error', message } });
}

/** `POST /v1/oauth/token` with `grant_type: refresh_token`: rotates, or refuses with `invalid_grant`. */
export function tokenAnswer(state: AccountState, req: RecordedRequest): ResponsePlan {
  const grant = field(req.json, 'grant_type');
  const refresh = field(req.json, 'refresh_token');
  const clientId = field(req.json, 'client_id');
  if (grant !== 'refresh_token' || typeof clientId !== 'string' || clientId === '') {
    return jsonPlan(400, {
      error: 'invalid_request',
      error_description: 'grant_type refresh_token and client_id are required',
    });
  }
  if (state.token.mode === 'error') return jsonPlan(500, { error: 'server_error' });
  if (state.token.mode === 'invalid_grant' || refresh !== state.tokens.refreshToken) {
    return jsonPlan(400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
  }
  const n = state.tokens.issued + 1;
  state.tokens.issued = n;
  state.tokens.accessToken = fakeToken('access', state.name, n);
  if (state.token.rotateRefreshToken !== false) state.tokens.refreshToken = fakeToken('refresh', state.name, n);
  const scope = field(req.json, 'scope');
  return jsonPlan(200, {
    token_type: 'Bearer',
    access_token: state.tokens.accessToken,
    refresh_token: state.tokens.refreshToken,
    expires_in: state.token.expiresIn ?? 28_800,
    scope: typeof scope === 'string' ? scope : 'user:inference user:profile',
  });
}

/** `GET /api/oauth/usage?at_wall=1&skip_spend=1`: the windows and the `juniper_tide` reset block. */
export function usageStatusAnswer(state: AccountState, req: RecordedRequest): ResponsePlan {
  if (!hasCurrentToken(state, req)) return unauthorized();
  const now = state.now();
  return jsonPlan(200, {
    five_hour: { utilization: 100, resets_at: iso(now + 60 * 60_000) },
    seven_day: { utilization: 40, resets_at: iso(now + 3 * 24 * 60 * 60_000) },
    juniper_tide: {
      eligible: state.offer.eligible,
      ineligible_reason: state.offer.eligible ? null : 'not_in_experiment',
      in_experiment: true,
      arm: state.offer.arm,
      available: state.offer.available,
      next_available_at: iso(state.offer.nextAvailableAt),
      weekly_resets_at: iso(now + 3 * 24 * 60 * 60_000),
      resets_per_week: 1,
    },
  });
}

/** `POST /api/organizations/{uuid}/reset_rate_limits` with `{ program: "juniper_tide" }`. */
export function claimAnswer(state: AccountState, req: RecordedRequest, uuid: string): ResponsePlan {
  if (!hasCurrentToken(state, req)) return unauthorized();
  if (uuid !== state.organizationUuid)
    return jsonPlan(404, { type: 'error', error: { type: 'not_found_error', message: 'organization not found' } });
  if (field(req.json, 'program') !== 'juniper_tide')
    return jsonPlan(400, { type: 'error', error: { type: 'invalid_request_error', message: 'unknown program' } });
  const script = state.claim;
  if ('status' in script)
    return jsonPlan(script.status, { type: 'error', error: { type: 'api_error', message: 'claim failed' } });
  const now = state.now();
  const next = script.nextAvailableAt === undefined ? now + WEEK_MS : script.nextAvailableAt;
  if (script.result === 'reset') {
    state.offer = { ...state.offer, available: false, nextAvailableAt: next };
    state.onReset();
  }
  return jsonPlan(200, {
    result: script.result,
    next_available_at: iso(next),
    weekly_resets_at: iso(now + 3 * 24 * 60 * 60_000),
  });
}

/** `GET /api/claude_cli/bootstrap`: names the account's organisation (RESET-5 fallback). */
export function bootstrapAnswer(state: AccountState, req: RecordedRequest): ResponsePlan {
  if (!hasCurrentToken(state, req)) return unauthorized();
  return jsonPlan(200, { organization_uuid: state.organizationUuid, account: { uuid: `acct-${state.name}` } });
}
