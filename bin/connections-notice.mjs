// `leeway claude` on a Leeway with nothing to serve from (issue 21 §12): Claude Code would only say
// "There's an issue with the selected model", so the terminal says what is missing first, with the
// dashboard link (and its token, as `leeway start` prints it) where it is fixed.
import { adminAccess } from './local-key.mjs';

/** The dashboard link that opens it in a browser: the admin origin with its token. */
export const dashboardLink = (admin) => `${admin.url}/?token=${encodeURIComponent(admin.token)}`;

/**
 * The lines to print when no connection can serve (none at all, or every one disabled), else null.
 * Null too when the admin API cannot be asked (no token, no answer): the proxy's own refusal still
 * says what to do.
 */
export async function connectionsNotice({ env, dataDir, proxyUrl }) {
  const admin = adminAccess(env, dataDir, proxyUrl);
  if (!admin) return null;
  let connections;
  try {
    const res = await fetch(`${admin.url}/api/rpc/connections.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(5_000),
    });
    const body = await res.json();
    if (body?.ok !== true || !Array.isArray(body.value)) return null;
    connections = body.value;
  } catch {
    return null;
  }
  if (connections.some((c) => c?.enabled === true)) return null;
  const problem =
    connections.length === 0
      ? 'no connection is set up yet, so Claude Code cannot get an answer. Add one in the dashboard:'
      : `every connection is disabled (${connections.length}), so Claude Code cannot get an answer. Enable one in the dashboard:`;
  return [
    `Leeway: ${problem}`,
    `  ${dashboardLink(admin)}`,
    connections.length === 0
      ? '  or name a config file when Leeway starts (--config FILE or LEEWAY_CONFIG; see leeway --help)'
      : null,
  ].filter((line) => line !== null);
}
