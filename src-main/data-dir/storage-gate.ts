import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import { sendError } from '../admin/http-replies';
import { sendClientError } from '../proxy/relay/client-errors';
import { isProxyNamespace } from '../proxy/accept/endpoints';
import { shutdownError } from '../proxy/stages/in-flight';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0] ?? '/';

/** Requests the gate refuses while storage is unavailable: model calls, which would log and learn into it. */
function needsStorage(pathname: string): boolean {
  return isProxyNamespace(pathname) && pathname !== '/health';
}

/** Answers `error` in the caller's own dialect: the admin Result, Anthropic or OpenAI. */
function refuse(req: IncomingMessage, res: ServerResponse, error: AppError): void {
  req.resume();
  const pathname = pathOf(req);
  if (pathname.startsWith('/api/')) return sendError(res, error);
  const anthropic = pathname.startsWith('/v1/messages') || req.headers['anthropic-version'] !== undefined;
  sendClientError(res, anthropic ? 'anthropic' : 'openai', error);
}

/** Answers 503 storage_unavailable in the caller's own dialect: the admin Result, Anthropic or OpenAI. */
export function refuseWithoutStorage(req: IncomingMessage, res: ServerResponse, message: string): void {
  refuse(req, res, { code: 'storage_unavailable', message });
}

/**
 * The servers' request listener, bound before storage exists (a port in use must leave no data dir
 * behind): until `open` it refuses everything, and after `lose` it refuses model calls honestly
 * while the dashboard and its event stream keep answering so the banner reaches the user. Once
 * `drain` is called (issue 21 §9: Leeway is stopping) every new request on a kept-alive socket is
 * refused with 503 `shutdown` and the socket closed; `/health` says `stopping`.
 */
export interface StorageGate {
  listener: Listener;
  open(inner: Listener): void;
  lose(message: string): void;
  drain(): void;
}

export function createStorageGate(): StorageGate {
  let inner: Listener | null = null;
  let lost: string | null = null;
  let draining = false;
  return {
    listener(req, res) {
      if (draining) {
        res.shouldKeepAlive = false;
        if (pathOf(req) !== '/health') return refuse(req, res, shutdownError());
        req.resume();
        const body = JSON.stringify({ status: 'stopping' });
        res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        return void res.end(body);
      }
      if (inner === null) return refuseWithoutStorage(req, res, 'Leeway is still starting; retry in a moment');
      if (lost !== null && needsStorage(pathOf(req))) return refuseWithoutStorage(req, res, lost);
      inner(req, res);
    },
    open(listener) {
      inner = listener;
    },
    lose(message) {
      lost = message;
    },
    drain() {
      draining = true;
    },
  };
}
