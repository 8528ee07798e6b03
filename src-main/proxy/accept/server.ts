import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AppError } from '../../../src-shared/contract/errors';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import { healthAnswer } from './health-answer';
import { listModels } from '../../routing/resolve-targets';
import { DEFAULT_SETTINGS } from '../../../src-shared/domain/settings';
import { sendClientError, type ClientFormat } from '../relay/client-errors';
import { installProtocolErrorAnswers } from './client-error-handler';
import { guessFormat, pathnameOf } from '../relay/client-format';
import { boundRefusedBody, installClientLimits, type ClientLimits } from './client-sockets';
import {
  isProxyNamespace,
  logV1Repair,
  matchEndpoint,
  repairedPath,
  v1RepairOf,
  v1Warning,
  type EndpointMatch,
  type ModelEndpoint,
} from './endpoints';
import { continueBody, installExpectContinue } from './expect-continue';
import { serveGeminiCount, serveGeminiModels } from './gemini-door';
import { asksForSse, geminiQueryKey } from './gemini-endpoints';
import { checkHost, checkTargetHost, isAllowedOrigin, localKeyOf } from './guards';
import { handleModelRequest } from '../stages/handle-model-request';
import { answerInternalError } from './internal-error';
import { discoveredDetails, modelsBody } from './models-response';
import type { ProxyContext } from '../proxy-context';
import { readBody } from './read-body';
import { loggedPath, recordRefusal, type Refusal } from './record-refusal';
import { absoluteTarget } from './request-target';
import { answerLeaseRequest, SESSION_LEASES_PATH } from './session-leases';
import { WARNING_HEADER } from '../stages/answer';

/** The lease lifecycle is small JSON; anything bigger is not a lease request. */
const LEASE_BODY_LIMIT = 16 * 1024;
const LEASE_DOOR: EndpointMatch = { kind: 'matched', endpoint: { kind: 'session-leases' } };
const SLASH = 0x2f;

/** The part of the admin door the proxy server delegates non-proxy paths to. */
export interface SecondaryHandler {
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

function sendJson(res: ServerResponse, status: number, body: string, head: boolean): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

/**
 * The host check for a request (PROD-18), and its target in origin-form. Issue 21 §7: an
 * absolute-form target (`GET http://127.0.0.1:7431/v1/models`) is served by its path when it names
 * this host, as RFC 9112 §3.2.2 asks of an origin server; `req.url` becomes that path, so every
 * later reader (the admin door too) sees origin-form.
 */
function checkTarget(req: IncomingMessage, allowedHosts: ReadonlySet<string>): AppError | null {
  const url = req.url ?? '/';
  if (url.charCodeAt(0) === SLASH) return checkHost(req.rawHeaders, allowedHosts);
  const target = absoluteTarget(url);
  if (target.kind === 'unsupported') {
    return { code: 'invalid_input', message: 'The request target must be a path, such as /v1/messages' };
  }
  req.url = target.url;
  return checkTargetHost(target.authority, allowedHosts);
}

/** The request handler of the local endpoint: guards, then one of the proxy routes or the admin door. */
export function createProxyHandler(ctx: ProxyContext, secondary: SecondaryHandler | null) {
  const handle = createRequestHandler(ctx, secondary);
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    try {
      return handle(req, res);
    } catch (error) {
      // Issue 21 §3: a synchronous throw would reach Node's emitter and end the process.
      const pathname = pathnameOf(req.url ?? '/');
      const refusal = { startedAt: ctx.now(), format: guessFormat(req, pathname), endpoint: loggedPath(pathname) };
      answerInternalError(ctx, req, res, { ...refusal, keyName: null }, error);
    }
  };
}

/** A request as it arrived: its path (absolute form and /v1 repaired), query, format and start. */
interface Arrival {
  req: IncomingMessage;
  res: ServerResponse;
  startedAt: number;
  pathname: string;
  search: string;
  format: ClientFormat;
  /** The target's host check (PROD-18, issue 21 §7), refused before anything else. */
  hostError: AppError | null;
}

type Routed = { kind: 'handled' } | { kind: 'refused'; error: AppError } | { kind: 'route'; endpoint: ProxyEndpoint };

type ProxyEndpoint = Extract<EndpointMatch, { kind: 'matched' }>['endpoint'];

function createRequestHandler(ctx: ProxyContext, secondary: SecondaryHandler | null) {
  // A model request settles (and is logged) after its response; the promise lets a shutdown wait for it.
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const arrival = arrive(ctx, req, res);
    const routed = routeOf(secondary, arrival);
    if (routed.kind === 'handled') return;
    if (routed.kind === 'refused') return refuse(ctx, arrival, routed.error, null);
    return serve(ctx, arrival, routed.endpoint);
  };
}

function arrive(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Arrival {
  const startedAt = ctx.now();
  const hostError = checkTarget(req, ctx.config.allowedHosts);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  // Issue 13 §6 / issue 21 §15: a base URL ending in /v1 doubles it, one without /v1 (opencode,
  // Kilo) drops it; either is served as /v1/…, with a warning (endpoints.ts).
  const repair = v1RepairOf(rawPath);
  const pathname = repair === null ? rawPath : repairedPath(rawPath, repair);
  if (repair !== null) {
    res.setHeader(WARNING_HEADER, v1Warning(repair));
    logV1Repair(ctx, repair, ctx.host.log, rawPath, startedAt);
  }
  const search = q === -1 ? '' : url.slice(q);
  return { req, res, startedAt, pathname, search, format: guessFormat(req, pathname), hostError };
}

/** Guards, then which door: a proxy endpoint, the admin door (handled there), or a refusal. */
function routeOf(secondary: SecondaryHandler | null, arrival: Arrival): Routed {
  const { req, res, pathname } = arrival;
  if (arrival.hostError) return { kind: 'refused', error: arrival.hostError };
  if (!isAllowedOrigin(headerString(req.headers.origin))) {
    return refused('forbidden_origin', 'Requests from web pages on other origins are refused');
  }
  const leases = pathname === SESSION_LEASES_PATH;
  if (!leases && !isProxyNamespace(pathname)) {
    // The admin door reads its bodies itself: a client waiting for 100 Continue gets it now.
    if (secondary) continueBody(req, res);
    if (secondary?.handle(req, res)) return { kind: 'handled' };
    return refused('not_found', `No route for ${req.method ?? 'GET'} ${pathname}`);
  }
  const match = leases ? leaseDoorFor(req) : matchEndpoint(req.method ?? 'GET', pathname);
  if (match.kind === 'not_proxy') return refused('not_found', `No route for ${req.method ?? 'GET'} ${pathname}`);
  if (match.kind === 'refused') return { kind: 'refused', error: match.error };
  if (match.kind === 'wrong_method') {
    res.setHeader('allow', match.allowed);
    return refused('method_not_allowed', `${req.method ?? ''} is not allowed on ${pathname}; use ${match.allowed}`);
  }
  return { kind: 'route', endpoint: match.endpoint };
}

function refused(code: AppError['code'], message: string): Routed {
  return { kind: 'refused', error: { code, message } };
}

/** The lease lifecycle door takes POST only. */
function leaseDoorFor(req: IncomingMessage): EndpointMatch {
  return req.method === 'POST' ? LEASE_DOOR : { kind: 'wrong_method', allowed: 'POST' };
}

/**
 * Refused before a key was verified: no key name (a wrong key is never stored). Issue 13 §3: every
 * refusal gets an activity row, under the endpoint's name once one matched.
 */
function refuse(ctx: ProxyContext, arrival: Arrival, error: AppError, endpointName: string | null): void {
  const { req, res, startedAt, format, pathname } = arrival;
  req.resume();
  boundRefusedBody(req);
  sendClientError(res, format, error);
  recordRefusal(ctx, { startedAt, format, endpoint: endpointName ?? loggedPath(pathname), keyName: null, error });
}

/** One proxy endpoint: /health needs no key; the rest need a verified local key. */
function serve(ctx: ProxyContext, arrival: Arrival, endpoint: ProxyEndpoint): void | Promise<void> {
  const { req, res } = arrival;
  const head = req.method === 'HEAD';
  if (endpoint.kind === 'health') {
    const storage = ctx.host.storage();
    const answer = healthAnswer(storage.status, storage.lost, ctx.config.version, ctx.config.settings().paused);
    return sendJson(res, answer.httpStatus, answer.body, head);
  }
  const plainKey = localKeyOf(req.headers) ?? (arrival.format === 'gemini' ? geminiQueryKey(arrival.search) : null);
  const key = plainKey ? ctx.config.verifyKey(plainKey) : null;
  if (!key) {
    const message = plainKey
      ? 'Invalid local API key'
      : arrival.format === 'gemini'
        ? 'Missing local API key: send it as x-goog-api-key or ?key='
        : 'Missing local API key: send it as x-api-key or Authorization: Bearer';
    const name =
      endpoint.kind === 'model' ? endpoint.name : endpoint.kind === 'session-leases' ? SESSION_LEASES_PATH : null;
    return refuse(ctx, arrival, { code: 'unauthorized', message }, name);
  }
  switch (endpoint.kind) {
    case 'session-leases':
      return serveLeases(ctx, arrival, key);
    case 'models':
      return serveModels(ctx, arrival, head);
    case 'model':
      return serveModel(ctx, arrival, endpoint, key);
    case 'gemini-models':
      return serveGeminiModels(ctx, res, endpoint.model, head);
    case 'gemini-count':
      return serveGeminiCount(ctx, req, res).catch((error: unknown) =>
        answerInternalError(ctx, req, res, { ...modelRefusalOf(arrival, 'count_tokens'), keyName: key.name }, error),
      );
  }
}

function serveLeases(ctx: ProxyContext, arrival: Arrival, key: LocalKeyView): Promise<void> {
  const { req, res, startedAt, format } = arrival;
  const refusal = { startedAt, format, endpoint: SESSION_LEASES_PATH, keyName: key.name };
  return readBody(req, res, LEASE_BODY_LIMIT)
    .then((body) => {
      if (!body.ok) {
        refuseBody(req, res, format, body.error);
        return recordRefusal(ctx, { ...refusal, error: body.error });
      }
      answerLeaseRequest(ctx, res, format, key, req.headers, body.value);
    })
    .catch((error: unknown) => answerInternalError(ctx, req, res, refusal, error));
}

function serveModels(ctx: ProxyContext, arrival: Arrival, head: boolean): void {
  const { req, res, search } = arrival;
  const modelFormat = req.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
  const catalog = ctx.config.catalog();
  const body = modelsBody(modelFormat, listModels(catalog, modelFormat), {
    search,
    details: discoveredDetails(catalog),
  });
  sendJson(res, 200, body, head);
}

function modelRefusalOf(arrival: Arrival, endpoint: string): Omit<Refusal, 'error' | 'keyName'> {
  return { startedAt: arrival.startedAt, format: arrival.format, endpoint };
}

function serveModel(
  ctx: ProxyContext,
  arrival: Arrival,
  endpoint: ModelEndpoint,
  key: LocalKeyView,
): void | Promise<void> {
  const { req, res, startedAt } = arrival;
  // A Gemini call's query is its `alt` and `key` (the local key: never sent upstream).
  const search = endpoint.wire === 'gemini' ? '' : arrival.search;
  if (endpoint.operation === 'stream_generate_content' && !asksForSse(arrival.search)) {
    const error = {
      code: 'invalid_input' as const,
      status: 400,
      message: ':streamGenerateContent is served as SSE only: add ?alt=sse',
    };
    return refuse(ctx, arrival, error, endpoint.name);
  }
  return readBody(req, res, ctx.config.settings().maxBodyBytes)
    .then((body) => {
      if (!body.ok) {
        refuseBody(req, res, endpoint.format, body.error);
        return recordRefusal(ctx, { ...modelRefusal(startedAt, endpoint, key.name), error: body.error });
      }
      return handleModelRequest(ctx, { req, res, endpoint, search, body: body.value, key, startedAt });
    })
    .catch((error: unknown) => answerInternalError(ctx, req, res, modelRefusal(startedAt, endpoint, key.name), error));
}

/** A model request's refusal fields, built only when a refusal happens (nothing extra per served request). */
function modelRefusal(startedAt: number, endpoint: ModelEndpoint, keyName: string): Omit<Refusal, 'error'> {
  return { startedAt, format: endpoint.format, endpoint: endpoint.name, keyName };
}

/**
 * A body that could not be read whole: a body over the limit (issue 21 §4) is refused with the
 * connection closing after the answer, and the socket keeps reading what is still on its way
 * (client-close.ts), so the client reads the 413 instead of a reset.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, format: ClientFormat, error: AppError): void {
  if (error.code === 'body_too_large') {
    res.setHeader('connection', 'close');
    boundRefusedBody(req);
  }
  sendClientError(res, format, error);
}

function headerString(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface ProxyServerOptions {
  /** Read on every connection and request, so a settings change applies at once. */
  limits: () => ClientLimits;
  log: (line: string) => void;
}

/**
 * A node:http server tuned for long-lived streams, with every client socket bounded while its
 * request is read (client-sockets.ts) and protocol errors answered in JSON (client-error-handler.ts).
 */
export function createProxyServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: ProxyServerOptions = { limits: () => DEFAULT_SETTINGS, log: () => undefined },
): Server {
  // requestTimeout 0: Leeway's own deadline answers 408 in the client's format. requireHostHeader
  // off: the Host guard refuses a missing Host itself, in JSON. The check interval drives headersTimeout.
  const server = createServer({
    keepAliveTimeout: 65_000,
    requestTimeout: 0,
    headersTimeout: 60_000,
    requireHostHeader: false,
    connectionsCheckingInterval: 1_000,
  });
  installClientLimits(server, options.limits, options.log);
  installProtocolErrorAnswers(server, options.limits);
  installExpectContinue(server);
  // After the limits: their 'request' listener must see each request before the handler answers it.
  server.on('request', handler);
  return server;
}
