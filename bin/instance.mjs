// The Leeway running on a data directory: found through its lock file (pid + port), started in
// the background when there is none, stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { LauncherError } from './entry.mjs';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

const nonEmpty = (value) => (value !== undefined && value.trim() !== '' ? value : undefined);

/** The data directory the headless entry would use (same rules as src-main/cli/parse-args.ts). */
export function dataDirOf(env, platform = process.platform, home = homedir()) {
  const given = nonEmpty(env.LEEWAY_DATA_DIR);
  if (given !== undefined) return given;
  if (platform === 'win32') {
    return path.win32.join(nonEmpty(env.APPDATA) ?? path.win32.join(home, 'AppData', 'Roaming'), 'Leeway');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Leeway');
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  return path.posix.join(
    xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config'),
    'Leeway',
  );
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** `{ pid, port }` of the live instance holding the data directory's lock, or null. */
export function runningOn(dataDir) {
  try {
    const lock = JSON.parse(readFileSync(path.join(dataDir, 'leeway.lock'), 'utf8'));
    if (!isAlive(lock.pid)) return null;
    return { pid: lock.pid, port: typeof lock.port === 'number' ? lock.port : null };
  } catch {
    return null;
  }
}

/** True when Leeway's own /health answers on the port (storage degraded counts: it still serves). */
export async function answersHealth(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
    const body = await res.json();
    return res.ok && (body?.status === 'ok' || body?.status === 'degraded');
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the instance on the data dir has a port and answers; null if it vanished. */
async function waitReady(dataDir, pid, deadline, exited) {
  while (Date.now() < deadline && !exited()) {
    const running = runningOn(dataDir);
    if (
      running &&
      (pid === undefined || running.pid === pid) &&
      running.port !== null &&
      (await answersHealth(running.port))
    ) {
      return running;
    }
    await sleep(100);
  }
  return null;
}

/** The running instance, or a new one started detached (it outlives this command) with this environment. */
export async function ensureRunning(env, nodeArgs, log) {
  const dataDir = dataDirOf(env);
  const existing = runningOn(dataDir);
  if (existing) {
    const ready = await waitReady(dataDir, existing.pid, Date.now() + 10_000, () => false);
    if (ready) return { ...ready, dataDir, started: false };
  }
  // Its terminal output (it includes the dashboard link with the admin token) goes to a private file.
  const logDir = mkdtempSync(path.join(tmpdir(), 'leeway-'));
  const logFile = path.join(logDir, 'leeway.out');
  const fd = openSync(logFile, 'w', 0o600);
  const child = spawn(process.execPath, nodeArgs, { detached: true, stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  let exitCode = null;
  child.on('exit', (code, signal) => (exitCode = code ?? signal ?? 'exit'));
  child.unref();
  const ready = await waitReady(dataDir, child.pid, Date.now() + START_TIMEOUT_MS, () => exitCode !== null);
  if (!ready) {
    if (exitCode === null) child.kill('SIGTERM');
    const output = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim() : '';
    throw new LauncherError(`Leeway did not start${exitCode === null ? ' in time' : ''}:\n${output}`);
  }
  log(
    `Leeway: started in the background (pid ${ready.pid}, port ${ready.port}); output in ${logFile}; stop it with: leeway stop`,
  );
  return { ...ready, dataDir, started: true };
}

/** Stops the instance on the data directory; false when none runs. */
export async function stopRunning(env) {
  const dataDir = dataDirOf(env);
  const running = runningOn(dataDir);
  if (!running) return { stopped: false, dataDir };
  process.kill(running.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(running.pid)) {
    if (Date.now() > deadline)
      throw new LauncherError(`Leeway (pid ${running.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
  return { stopped: true, dataDir, pid: running.pid };
}
