// `leeway why <request-id|last>` (issue 24 §1): the decision record of one request as a timeline —
// every candidate in order, why it was skipped or how its attempt ended — read from the running
// Leeway's admin API (GET /api/requests/:id/decision; the admin token is in the data dir).
import { LauncherError } from './entry.mjs';
import { dataDirOf, runningOn } from './instance.mjs';
import { adminAccess } from './local-key.mjs';

const USAGE = 'usage: leeway why <request-id|last>';

/** The admin API of the Leeway on this data dir (LEEWAY_ADMIN_PORT wins), or a clear refusal. */
function adminOf(env) {
  const dataDir = dataDirOf(env);
  const port = env.LEEWAY_ADMIN_PORT?.trim() || runningOn(dataDir)?.port;
  if (!port) throw new LauncherError(`Leeway is not running on ${dataDir} (start it with leeway start)`);
  const admin = adminAccess(env, dataDir, `http://127.0.0.1:${port}`);
  if (!admin) throw new LauncherError(`no admin token (LEEWAY_ADMIN_TOKEN or the data dir's admin-token file)`);
  return admin;
}

/** The timeline's lines for one request id (or `last`). */
export async function whyLines(admin, id) {
  const res = await fetch(`${admin.url}/api/requests/${encodeURIComponent(id)}/decision`, {
    headers: { authorization: `Bearer ${admin.token}` },
    signal: AbortSignal.timeout(5_000),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok || !Array.isArray(body?.lines))
    throw new LauncherError(body?.error?.message ?? `the admin API answered HTTP ${res.status}`);
  return [`Request ${body.id}:`, ...body.lines];
}

export async function runWhyCommand(args, env) {
  const [id, ...extra] = args;
  if (id === undefined || extra.length > 0 || !(id === 'last' || /^\d+$/.test(id))) {
    console.error(USAGE);
    return 2;
  }
  for (const line of await whyLines(adminOf(env), id)) console.log(line);
  return 0;
}
