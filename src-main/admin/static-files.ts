import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { BASE_HEADERS, sendError } from './http-replies';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const NOT_SERVED = { code: 'not_found', message: 'No such file in the dashboard' } as const;

/** Content type for a served file; unknown kinds are not served at all. */
export function contentTypeOf(file: string): string | null {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? null;
}

/** The built renderer on disk, served read-only and never outside its folder. */
export interface StaticFiles {
  /** Absolute path of the file `urlPath` names inside the folder, or null for a miss or an escape attempt. */
  locate(urlPath: string): Promise<string | null>;
  hasIndex(): Promise<boolean>;
  /** Streams `file` (from `locate`); HEAD gets the headers only. */
  send(res: ServerResponse, file: string, headOnly: boolean): void;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + sep);
}

export function createStaticFiles(rendererDir: string | null): StaticFiles {
  const root = rendererDir === null ? null : resolve(rendererDir);

  const locate = async (urlPath: string): Promise<string | null> => {
    if (root === null) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const candidate = resolve(root, '.' + (decoded.endsWith('/') ? decoded + 'index.html' : decoded));
    if (!isInside(root, candidate) || contentTypeOf(candidate) === null) return null;
    try {
      // A symlink inside the folder must not lead outside it either.
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
      if (!isInside(realRoot, realFile)) return null;
      return (await stat(realFile)).isFile() ? realFile : null;
    } catch {
      return null;
    }
  };

  return {
    locate,
    hasIndex: async () => (await locate('/index.html')) !== null,
    send(res, file, headOnly) {
      const contentType = contentTypeOf(file);
      if (contentType === null) return sendError(res, NOT_SERVED);
      // The dashboard is tiny and local; revalidating every time beats serving a stale build after an update.
      const headers = { ...BASE_HEADERS, 'cache-control': 'no-cache', 'content-type': contentType };
      if (headOnly) {
        res.writeHead(200, headers);
        res.end();
        return;
      }
      const stream = createReadStream(file);
      stream.once('open', () => {
        res.writeHead(200, headers);
        stream.pipe(res);
      });
      stream.once('error', () => {
        if (res.headersSent) res.destroy();
        else sendError(res, NOT_SERVED);
      });
      res.once('close', () => stream.destroy());
    },
  };
}
