/**
 * The suite's upstream: one loopback port that speaks Anthropic Messages (`/v1/messages`,
 * `count_tokens`), OpenAI Chat Completions and Responses, and `/v1/models` in the shape the caller
 * asks for. It answers from the marker in each prompt, accepts any credential, and records every
 * exchange byte for byte so checks can compare what the client got with what was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeServer, flattenHeaders, parseJson } from '../../fake-server-kit';
import { errorPlan, type PlanContext, type ResponsePlan } from '../../fake-upstream-errors';
import { createExchange, type Exchange } from '../../fake-upstream-exchange';
import { modelList } from '../../fake-upstream-models';
import { jsonPlan } from '../../fake-upstream-plans';
import { okPlan, successHeaders } from '../../fake-upstream-responses';
import type { RecordedRequest } from '../../fake-upstream-types';
import { markerOf, type Marker } from './markers';
import { countTokensFor, decide } from './scenarios';
import type { ConformanceUpstream, SentFacts, UpstreamApi, UpstreamExchange } from './types';

export interface UpstreamOptions {
  /** 0 (default) picks a free port; a fixed one lets another gateway's config point at it. */
  port?: number;
  /** Ids `/v1/models` lists, e.g. the suite's Anthropic and OpenAI model names. */
  models: readonly string[];
}

const API_OF: Record<string, UpstreamApi> = {
  'POST /v1/messages': 'anthropic',
  'POST /v1/chat/completions': 'chat',
  'POST /v1/responses': 'responses',
};

function credentialOf(headers: Record<string, string>): string {
  return headers['x-api-key'] ?? /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '';
}

interface Answer {
  plan: ResponsePlan;
  sent: SentFacts;
  api: UpstreamApi | null;
  marker: Marker | null;
}

/** The answer and the facts it carries, for one recorded request. */
function answer(record: RecordedRequest, pathname: string, models: readonly string[]): Answer {
  const anthropicShaped = record.headers['anthropic-version'] !== undefined || pathname.startsWith('/v1/messages');
  const ctx: PlanContext = {
    format: anthropicShaped ? 'anthropic' : 'openai',
    name: 'conformance',
    seq: record.seq,
    models,
    requireAuth: false,
    apiKey: undefined,
  };
  const route = `${record.method} ${pathname}`;
  const marker = markerOf(record.json);
  const bare = (plan: ResponsePlan, api: UpstreamApi | null = null): Answer => ({ plan, sent: {}, api, marker: null });
  if (route === 'GET /v1/models') return bare(jsonPlan(modelList(ctx), successHeaders(ctx)));
  if (route === 'POST /v1/messages/count_tokens') {
    const count = countTokensFor(marker?.nonce ?? '', record.body);
    const plan = jsonPlan({ input_tokens: count }, successHeaders(ctx));
    return { plan, sent: { countTokens: count }, api: 'anthropic', marker };
  }
  const api = API_OF[route];
  // Gemini's /v1beta lands here too until the suite speaks it.
  if (api === undefined) return bare(errorPlan(ctx, 404, anthropicShaped ? 'Not Found' : `Invalid URL (${route})`));
  if (record.json === null) return bare(errorPlan(ctx, 400, 'The request body is not valid JSON.'), api);
  // Requests a client sends on its own (titles, warm-ups) get a plain answer.
  if (marker === null) return bare(okPlan(ctx, record, pathname, { kind: 'ok', text: 'conformance: unmarked' }), api);
  return { ...decide(ctx, api, record, marker), api, marker };
}

export async function startConformanceUpstream(options: UpstreamOptions): Promise<ConformanceUpstream> {
  const exchanges: UpstreamExchange[] = [];
  const sockets = new Set<Socket>();
  const live = new Set<Exchange>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      const headers = flattenHeaders(req);
      const record: RecordedRequest = {
        seq: exchanges.length + 1,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers,
        body,
        json: parseJson(body),
        aborted: false,
        response: null,
      };
      const pathname = new URL(record.path, 'http://upstream').pathname;
      const { plan, sent, api, marker } = answer(record, pathname, options.models);
      exchanges.push({ record, api, marker, credential: credentialOf(headers), sent });
      const exchange = createExchange(res, record, () => closing);
      live.add(exchange);
      res.on('close', () => live.delete(exchange));
      exchange.send(plan).catch(() => res.destroy());
    });
  };

  const server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    exchanges,
    byNonce: (nonce) => exchanges.filter((e) => e.marker?.nonce === nonce),
    close: () => {
      closing = true;
      closed ??= closeServer(server, sockets, live);
      return closed;
    },
  };
}
