import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import { sendError } from '../admin/http-replies';
import { sendClientError } from '../proxy/client-errors';
import { isProxyNamespace } from '../proxy/endpoints';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Requests the gate refuses while storage is unavailable: model calls, which would log and learn into it. */
function needsStorage(pathname: string): boolean {
  return isProxyNamespace(pathname) && pathname !== '/health';
}

/** Answers 503 storage_unavailable in the caller's own dialect: the admin Result, Anthropic or OpenAI. */
export function refuseWithoutStorage(req: IncomingMessage, res: ServerResponse, message: string): void {
  req.resume();
  const error: AppError = { code: 'storage_unavailable', message };
  const pathname = (req.url ?? '/').split('?')[0] ?? '/';
  if (pathname.startsWith('/api/')) return sendError(res, error);
  const anthropic = pathname.startsWith('/v1/messages') || req.headers['anthropic-version'] !== undefined;
  sendClientError(res, anthropic ? 'anthropic' : 'openai', error);
}

/**
 * The servers' request listener, bound before storage exists (a port in use must leave no data dir
 * behind): until `open` it refuses everything, and after `lose` it refuses model calls honestly
 * while the dashboard and its event stream keep answering so the banner reaches the user.
 */
export interface StorageGate {
  listener: Listener;
  open(inner: Listener): void;
  lose(message: string): void;
}

export function createStorageGate(): StorageGate {
  let inner: Listener | null = null;
  let lost: string | null = null;
  return {
    listener(req, res) {
      if (inner === null) return refuseWithoutStorage(req, res, 'Leeway is still starting; retry in a moment');
      if (lost !== null && needsStorage((req.url ?? '/').split('?')[0] ?? '/'))
        return refuseWithoutStorage(req, res, lost);
      inner(req, res);
    },
    open(listener) {
      inner = listener;
    },
    lose(message) {
      lost = message;
    },
  };
}
