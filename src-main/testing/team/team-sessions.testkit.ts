import { anthropicConnection, TEST_LOCAL_KEY } from '../start-leeway';

/**
 * Issue 24 §4, session pins and leases across a team: the config both instances add, and the
 * client calls. One fake upstream serves these connections; the API key it receives
 * (`sk-ant-secret-<connection>-0000`) tells which connection served.
 */
export const AGENT_KEY = 'lw-agent-key-0123456789abcdef';
export const AGENT2_KEY = 'lw-agent2-key-0123456789abcdef';

/** `warm` exists on both; an instance `withCold` also has `cold`, which its combo `pinned` prefers. */
export function sessionConfig(upstreamUrl: string, withCold: boolean) {
  const leaseAccess = { scopes: ['lease:exclusive'], allowedConnections: ['lease-x'] };
  const pinned = withCold ? ['cold', 'warm'] : ['warm'];
  const target = (connection: string) => ({ connection, model: 'claude-sonnet-4-5' });
  return {
    keys: [
      { name: 'agent', key: AGENT_KEY, ...leaseAccess },
      { name: 'agent2', key: AGENT2_KEY, ...leaseAccess },
    ],
    connections: [
      ...(withCold ? [anthropicConnection('cold', upstreamUrl, { priority: 11 })] : []),
      anthropicConnection('warm', upstreamUrl, { priority: 12 }),
      anthropicConnection('lease-x', upstreamUrl, { priority: 13 }),
      anthropicConnection('lease-y', upstreamUrl, { priority: 14 }),
    ],
    combos: [
      { name: 'pinned', targets: pinned.map(target) },
      { name: 'leased', targets: ['lease-x', 'lease-y'].map(target) },
    ],
  };
}

/** The connection whose key the upstream's latest request carried. */
export function servedBy(requests: ReadonlyArray<{ headers: Record<string, string | undefined> }>): string | undefined {
  return requests.at(-1)?.headers['x-api-key']?.slice('sk-ant-secret-'.length, -'-0000'.length);
}

/** A Claude Code style request in session `session`; its status (`servedBy` then tells the connection). */
export async function askInSession(
  url: string,
  model: string,
  session: string,
  as: { key: string; headers?: Record<string, string> } = { key: TEST_LOCAL_KEY },
): Promise<number> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': as.key,
      'anthropic-version': '2023-06-01',
      'x-claude-code-session-id': session,
      ...as.headers,
    },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

/** `POST /api/v1/session-leases` with a local key and, for renew and release, the owner. */
export async function leaseCall(url: string, key: string, body: Record<string, unknown>, owner?: string) {
  const res = await fetch(`${url}/api/v1/session-leases`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      ...(owner ? { 'x-leeway-lease-owner': owner } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
}
