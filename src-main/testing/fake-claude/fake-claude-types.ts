/** Types of the fake Claude subscription service (Messages API, OAuth token endpoint, reset endpoints). */
import type { RecordedRequest } from '../fake-upstream-types';

export type { RecordedRequest } from '../fake-upstream-types';

/** One usage window as the fake reports it: utilization is a fraction (0.42 = 42 %), reset in epoch seconds. */
export interface FakeUsageWindow {
  utilization: number;
  resetAt: number;
}

/** The account's usage as every `/v1/messages` answer reports it in `anthropic-ratelimit-unified-*`. */
export interface FakeUsage {
  fiveHour: FakeUsageWindow;
  sevenDay: FakeUsageWindow;
}

/**
 * The account is at its usage wall: requests without `anthropic-usage-limit: slow` get a limit 429
 * (status `rejected`, `reset`, `representative-claim`, optionally `slow-offer`); slow ones are served.
 */
export interface WallScript {
  /** Epoch seconds the wall lifts (`anthropic-ratelimit-unified-reset`, `5h-reset`). */
  resetAt: number;
  /** Which window is blamed (default `five_hour`). */
  claim?: string;
  /** The low-priority offer the 429 carries (default `treatment`); null sends none. */
  offer?: 'treatment' | 'control' | null;
  /** Extra headers on the wall 429. */
  headers?: Record<string, string>;
}

/** What a slow request gets instead of its 200 while the wall is up, one step per request. */
export type SlowStep =
  /** 429 `slow-status: slot_busy` with `slow-retry-after` (seconds) and optional `slow-max-wait`. */
  | { kind: 'slot_busy'; retryAfter?: number; maxWait?: number }
  /** 529 overloaded with `slow-retry-after`. */
  | { kind: 'overloaded'; retryAfter?: number }
  /** A 200 whose `slow-status` is this value (e.g. `weekly_limit`, `budget_exhausted`). */
  | { kind: 'slow-status'; status: string; httpStatus?: number };

/** A scripted answer to one `/v1/messages` request, taken before the wall and usage logic. */
export type MessageStep =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string | object }
  | { kind: 'ok'; text?: string; headers?: Record<string, string> };

/** How `POST /v1/oauth/token` answers. */
export interface TokenScript {
  /** `rotate` issues a new access and refresh token; `invalid_grant` answers 400; `error` answers 500. */
  mode: 'rotate' | 'invalid_grant' | 'error';
  /** Delay before answering, so concurrent refreshes overlap (default 0). */
  delayMs?: number;
  /** `expires_in` of issued tokens (default 28 800 s). */
  expiresIn?: number;
  /** Whether a refresh also rotates the refresh token (default true, as Claude's endpoint does). */
  rotateRefreshToken?: boolean;
}

/** The `juniper_tide` block of `GET /api/oauth/usage`. */
export interface ResetOffer {
  eligible: boolean;
  arm: 'reset' | 'control' | null;
  available: boolean;
  /** Epoch ms, sent as ISO text; null when none. */
  nextAvailableAt: number | null;
}

/** What the claim answers: a `result` (2xx JSON) or a bare HTTP status. */
export type ClaimScript =
  | { result: 'reset' | 'already_used' | 'not_limited' | 'ineligible' | 'unavailable'; nextAvailableAt?: number | null }
  | { status: number };

export interface FakeClaudeOptions {
  name?: string;
  /** The access token the fake accepts at start (default `sk-ant-oat01-fake-<name>-access-0`). */
  accessToken?: string;
  /** The refresh token the token endpoint accepts at start (default `sk-ant-ort01-fake-<name>-refresh-0`). */
  refreshToken?: string;
  /** Organisation the bootstrap endpoint names and the claim endpoint accepts. */
  organizationUuid?: string;
  /** Text of a normal answer (default `Hello from <name>.`). */
  text?: string;
}

/** The current credential pair; `accessToken` null means every bearer is refused (revoked). */
export interface FakeTokens {
  accessToken: string | null;
  refreshToken: string;
  /** How many refreshes issued new tokens. */
  issued: number;
}

export interface FakeClaude {
  readonly name: string;
  /** Origin, e.g. `http://127.0.0.1:PORT`: the connection's baseUrl. */
  readonly url: string;
  /** `${url}/v1/oauth/token`, for `providerSpecificData.oauthTokenUrl`. */
  readonly tokenUrl: string;
  readonly organizationUuid: string;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  readonly tokens: FakeTokens;
  /** POST /v1/messages (with or without `?beta=true`). */
  messages(): RecordedRequest[];
  tokenCalls(): RecordedRequest[];
  statusCalls(): RecordedRequest[];
  claimCalls(): RecordedRequest[];
  bootstrapCalls(): RecordedRequest[];
  setWall(wall: WallScript | null): void;
  readonly wall: WallScript | null;
  enqueueSlow(...steps: SlowStep[]): void;
  enqueue(...steps: MessageStep[]): void;
  setUsage(usage: Partial<FakeUsage>): void;
  readonly usage: FakeUsage;
  setToken(script: TokenScript): void;
  /** Makes the current access token stale (401) while the refresh token keeps working. */
  revokeAccessToken(): void;
  /** Replaces the credential pair, e.g. after a fresh login. */
  setTokens(tokens: { accessToken: string; refreshToken: string }): void;
  setResetOffer(offer: Partial<ResetOffer>): void;
  setClaim(script: ClaimScript): void;
  waitFor(predicate: (fake: FakeClaude) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
