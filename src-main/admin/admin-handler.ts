import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StorageStatus } from '../../src-shared/domain/storage-status';
import type { EventBus } from '../kernel/event-bus';
import type { Router } from '../api/router';
import type { MetricsText } from '../observability/metrics';
import { createTokenCheck, tokenCookie } from './auth';
import { refuseCrossSite } from './cross-site-guard';
import { notBuiltPage, signInPage } from './dashboard-pages';
import { createEventStreams } from './events-route';
import { sendError, sendJson, sendNotFound, sendPage } from './http-replies';
import { handleMetrics, METRICS_PATH } from './metrics-route';
import { handleRest, isRestPath } from './rest-routes';
import { handleRpc } from './rpc-route';
import { createStaticFiles } from './static-files';

export interface AdminHandlerDeps {
  router: Router;
  events: EventBus;
  /** The admin token (≥ 16 characters); printed once in the dashboard link, never echoed. */
  token: string;
  /** Folder of the built renderer, or null when there is none to serve. */
  rendererDir: string | null;
  log?: (line: string) => void;
  /** Interval of SSE keep-alive comments; tests shorten it. */
  keepAliveMs?: number;
  /** Prometheus text for `GET /metrics` (issue 13 §2); absent: no such path. */
  metrics?: () => Promise<MetricsText>;
  /** Issue 21 §16: whether the data directory takes writes, added to `GET /api/health`. */
  storage?: () => StorageStatus;
}

/** The admin door the proxy server delegates to for everything outside `/v1/*` and `/health`. */
export interface AdminHandler {
  /** Takes `/api/*` and dashboard GETs, answering them asynchronously; false leaves the request to the caller. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Ends every open event stream, so the server can close without waiting for browsers. */
  closeAll(): void;
}

const RPC_PATH = /^\/api\/rpc\/([^/]+)$/;

/** Splits the raw request target by hand: WHATWG URL parsing would hide `..` segments from our own traversal check. */
function splitTarget(url: string | undefined): { pathname: string; query: URLSearchParams } {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q < 0
    ? { pathname: raw, query: new URLSearchParams() }
    : { pathname: raw.slice(0, q), query: new URLSearchParams(raw.slice(q + 1)) };
}

export function createAdminHandler(deps: AdminHandlerDeps): AdminHandler {
  const { router, log = () => {} } = deps;
  const auth = createTokenCheck(deps.token);
  const streams = createEventStreams(deps.events, deps.keepAliveMs);
  const files = createStaticFiles(deps.rendererDir);

  const handleApi = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    if (!auth.isAuthorized(req)) {
      req.resume();
      return sendError(
        res,
        { code: 'unauthorized', message: 'Missing or wrong admin token' },
        { 'www-authenticate': 'Bearer' },
      );
    }
    const refused = refuseCrossSite(req, auth);
    if (refused) {
      req.resume();
      return sendError(res, refused);
    }
    const rpc = RPC_PATH.exec(pathname);
    if (rpc?.[1] !== undefined) return handleRpc(req, res, rpc[1], router);
    if (pathname === '/api/events') {
      if (req.method !== 'GET')
        return sendError(res, { code: 'method_not_allowed', message: 'Use GET for /api/events' }, { allow: 'GET' });
      return streams.open(req, res);
    }
    if (isRestPath(pathname)) {
      return handleRest(req, res, pathname, router);
    }
    req.resume();
    sendError(res, { code: 'not_found', message: 'No such admin endpoint' });
  };

  const handleDashboard = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    query: URLSearchParams,
  ): Promise<void> => {
    const headOnly = req.method === 'HEAD';
    if (pathname === '/' || pathname === '/index.html') {
      const offered = query.get('token');
      if (offered !== null) {
        // Trade the token for a cookie and drop it from the address bar and history at once.
        if (auth.matches(offered)) sendPage(res, 302, '', { location: '/', 'set-cookie': tokenCookie(deps.token) });
        else sendPage(res, 401, signInPage());
        return;
      }
      if (!(await files.hasIndex())) return sendPage(res, 503, notBuiltPage());
      if (!auth.isAuthorized(req)) return sendPage(res, 401, signInPage());
      const index = await files.locate('/index.html');
      return index === null ? sendPage(res, 503, notBuiltPage()) : files.send(res, index, headOnly);
    }
    // Built assets hold no secrets; only the page that boots the app is behind the token.
    const file = await files.locate(pathname);
    if (file === null) return sendNotFound(res, req.method ?? 'GET', pathname);
    files.send(res, file, headOnly);
  };

  const run = (req: IncomingMessage, res: ServerResponse, pathname: string, work: Promise<void>): void => {
    work.catch((error: unknown) => {
      // A throw here is a bug; log the path only, since the query may carry the token.
      log(`admin: ${req.method ?? '?'} ${pathname} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) res.destroy();
      else sendError(res, { code: 'internal_error', message: 'Internal error in the admin server' });
    });
  };

  return {
    handle(req, res) {
      const { pathname, query } = splitTarget(req.url);
      if (pathname === '/api/health') {
        req.resume();
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          sendError(res, { code: 'method_not_allowed', message: 'Use GET for /api/health' }, { allow: 'GET' });
        } else sendJson(res, 200, deps.storage ? { ok: true, storage: deps.storage() } : { ok: true });
        return true;
      }
      if (pathname === METRICS_PATH && deps.metrics) {
        run(req, res, pathname, handleMetrics(req, res, auth, deps.metrics));
        return true;
      }
      if (pathname === '/api' || pathname.startsWith('/api/')) {
        run(req, res, pathname, handleApi(req, res, pathname));
        return true;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      req.resume();
      run(req, res, pathname, handleDashboard(req, res, pathname, query));
      return true;
    },
    closeAll: () => streams.closeAll(),
  };
}
