import type { FetchJsonRequest } from './fetch-json';

/** Where Claude's OAuth endpoints live unless a connection overrides it (tests point it at a fake). */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** The client the wire contract was captured from (reference §7.1); the endpoints expect a Claude Code agent. */
export const CLAUDE_CODE_USER_AGENT = 'claude-code/2.1.263';

/** The program name the claim body carries. */
export const RESET_PROGRAM = 'juniper_tide';

const OAUTH_BETA = 'oauth-2025-04-20';
const STATUS_TIMEOUT_MS = 5_000;
const CLAIM_TIMEOUT_MS = 25_000;
const BOOTSTRAP_TIMEOUT_MS = 5_000;

/** Who is asking and where: the parts every reset request shares. */
export interface ResetEndpoint {
  accessToken: string;
  baseUrl?: string;
  userAgent?: string;
}

function origin(baseUrl: string | undefined): string {
  return (baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
}

/** RESET-3: the usage status, asked "at the wall" and without spend data. */
export function resetStatusUrl(baseUrl?: string): string {
  return `${origin(baseUrl)}/api/oauth/usage?at_wall=1&skip_spend=1`;
}

/** RESET-4: the claim URL; the UUID is percent-encoded because it comes from user-editable config. */
export function resetClaimUrl(organizationUuid: string, baseUrl?: string): string {
  return `${origin(baseUrl)}/api/organizations/${encodeURIComponent(organizationUuid)}/reset_rate_limits`;
}

/** RESET-5: the bootstrap endpoint that names the account's organisation. */
export function bootstrapUrl(baseUrl?: string): string {
  return `${origin(baseUrl)}/api/claude_cli/bootstrap`;
}

/** The headers Claude Code sends on these endpoints (reference §7.5). */
export function resetHeaders(endpoint: ResetEndpoint): Record<string, string> {
  return {
    accept: 'application/json, text/plain, */*',
    authorization: `Bearer ${endpoint.accessToken}`,
    'content-type': 'application/json',
    'user-agent': endpoint.userAgent ?? CLAUDE_CODE_USER_AGENT,
    'anthropic-beta': OAUTH_BETA,
  };
}

/** GET status, 5 s. */
export function resetStatusRequest(endpoint: ResetEndpoint): FetchJsonRequest {
  const url = resetStatusUrl(endpoint.baseUrl);
  return { method: 'GET', url, headers: resetHeaders(endpoint), timeoutMs: STATUS_TIMEOUT_MS };
}

/** POST claim with `{ program: "juniper_tide" }`, 25 s. */
export function resetClaimRequest(endpoint: ResetEndpoint, organizationUuid: string): FetchJsonRequest {
  return {
    method: 'POST',
    url: resetClaimUrl(organizationUuid, endpoint.baseUrl),
    headers: resetHeaders(endpoint),
    body: { program: RESET_PROGRAM },
    timeoutMs: CLAIM_TIMEOUT_MS,
  };
}

/** GET bootstrap, 5 s. */
export function bootstrapRequest(endpoint: ResetEndpoint): FetchJsonRequest {
  const url = bootstrapUrl(endpoint.baseUrl);
  return { method: 'GET', url, headers: resetHeaders(endpoint), timeoutMs: BOOTSTRAP_TIMEOUT_MS };
}
