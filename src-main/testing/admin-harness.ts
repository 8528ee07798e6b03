import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdminHandler, type AdminHandler } from '../admin/admin-handler';
import { createEventBus, type EventBus } from '../kernel/event-bus';
import { createRouter, type Handlers } from '../api/router';
import { createStubHandlers } from './stub-handlers';

export const TEST_TOKEN = 'test-admin-token-0123456789abcdef';

export interface AdminHarness {
  base: string;
  port: number;
  events: EventBus;
  admin: AdminHandler;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1:0 that hands everything to the admin door, as the proxy would. */
export async function startAdminHarness(
  options: {
    handlers?: Partial<Handlers>;
    rendererDir?: string | null;
    keepAliveMs?: number;
    log?: (line: string) => void;
  } = {},
): Promise<AdminHarness> {
  const events = createEventBus();
  const router = createRouter(createStubHandlers(options.handlers));
  const admin = createAdminHandler({
    router,
    events,
    token: TEST_TOKEN,
    rendererDir: options.rendererDir ?? null,
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const server: Server = createServer((req, res) => {
    if (admin.handle(req, res)) return;
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not the admin door');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    events,
    admin,
    async close() {
      admin.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A temp folder holding a fake renderer build, a secret beside it and a symlink pointing at that secret. */
export async function makeRendererFixture(): Promise<{ root: string; rendererDir: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'leeway-admin-'));
  const rendererDir = join(root, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Leeway</title><div id="root"></div>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  await writeFile(join(rendererDir, 'assets', 'app.css'), 'body{}');
  await writeFile(join(root, 'secret.json'), '{"secret":"outside"}');
  await symlink(join(root, 'secret.json'), join(rendererDir, 'assets', 'link.json'));
  return { root, rendererDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** GET with the path sent byte for byte; fetch would normalise `..` away before our check ever saw it. */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
