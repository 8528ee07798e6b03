import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real `redis-server` for tests: its own free loopback port, no persistence, a temp dir, started
 * and stopped by the test. Tests skip (with the reason in their title) where the binary is missing.
 */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/** Null when redis-server can run here; otherwise why the Redis tests are skipped. */
export function redisUnavailableReason(): string | null {
  return existsSync(REDIS_SERVER_PATH) ? null : `${REDIS_SERVER_PATH} is not installed`;
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`, with `:<password>@` when one is required. */
  readonly url: string;
  /** SIGTERM, then SIGKILL after `graceMs` (default 2 000); resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** Starts a fresh (empty) server on the same port; resolves once it answers PING. */
  restart(): Promise<void>;
  /** Stops the server and deletes its directory; safe to call twice. */
  dispose(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

export interface RedisServerOptions {
  /** `--requirepass`: clients must authenticate (tests that check a password never reaches a log). */
  password?: string;
}

/** Starts redis-server on a free 127.0.0.1 port; resolves once it answers PING. */
export async function startRedisServer(opts: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  const launch = async (): Promise<void> => {
    const proc = spawn(
      REDIS_SERVER_PATH,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        ...(opts.password ? ['--requirepass', opts.password] : []),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<never>((_, reject) => {
      proc.once('exit', (code) => reject(new Error(`redis-server exited early (${code}): ${stderr}`)));
    });
    exited.catch(() => undefined);
    await Promise.race([waitForPong(port), exited]);
  };

  const stop = async (graceMs = 2_000): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  };

  await launch().catch(async (error: unknown) => {
    await stop(0);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    port,
    url: opts.password
      ? `redis://:${encodeURIComponent(opts.password)}@127.0.0.1:${port}`
      : `redis://127.0.0.1:${port}`,
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on right now (the kernel's pick for port 0, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/** Polls with an inline PING until the server answers (+PONG, or NOAUTH with a password). */
async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await pingOnce(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${READY_TIMEOUT_MS} ms`);
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      // A server with a password answers NOAUTH: it is up all the same.
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
  });
}
