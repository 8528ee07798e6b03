import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeServer, flattenHeaders, parseJson } from './fake-server-kit';

/**
 * A fake of Google's Gemini API (issue 23 §1) speaking its real wire format: `models/{m}:generateContent`
 * (JSON), `:streamGenerateContent?alt=sse` (`data:` chunks, CRLF-separated as Google sends them, no
 * [DONE], the last with finishReason and usageMetadata), `GET /v1beta/models`, and Google's error
 * envelope (a 429 RESOURCE_EXHAUSTED with RetryInfo). Answers follow a script, then `text`.
 */
export type GeminiPlan =
  | { kind: 'text'; text: string }
  | { kind: 'call'; name: string; args: Record<string, unknown> }
  | { kind: 'rate-limit'; retryDelay: string };

export interface GeminiSeen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeGemini {
  url: string;
  key: string;
  seen: GeminiSeen[];
  script: GeminiPlan[];
  close(): Promise<void>;
}

const USAGE = { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 };

function candidate(plan: GeminiPlan, finished: boolean): Record<string, unknown> {
  const parts =
    plan.kind === 'call'
      ? [{ functionCall: { name: plan.name, args: plan.args } }]
      : [{ text: plan.kind === 'text' ? plan.text : '' }];
  return { content: { role: 'model', parts }, index: 0, ...(finished ? { finishReason: 'STOP' } : {}) };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function rateLimitBody(retryDelay: string): Record<string, unknown> {
  return {
    error: {
      code: 429,
      // Google's words without "Please retry in …": the wait is only in RetryInfo, so a test sees it read from there.
      message: 'Resource has been exhausted (e.g. check quota).',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  };
}

function answer(fake: FakeGemini, req: IncomingMessage, res: ServerResponse, path: string, stream: boolean): void {
  const plan = fake.script.shift() ?? { kind: 'text', text: 'Hello from fake Gemini' };
  if (plan.kind === 'rate-limit') return sendJson(res, 429, rateLimitBody(plan.retryDelay));
  const model = /models\/([^:]+):/.exec(path)?.[1] ?? 'unknown';
  if (!stream)
    return sendJson(res, 200, { candidates: [candidate(plan, true)], usageMetadata: USAGE, modelVersion: model });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (plan.kind === 'text') {
    const half = Math.ceil(plan.text.length / 2);
    const first = { kind: 'text' as const, text: plan.text.slice(0, half) };
    res.write(`data: ${JSON.stringify({ candidates: [candidate(first, false)], modelVersion: model })}\r\n\r\n`);
    const rest = { kind: 'text' as const, text: plan.text.slice(half) };
    res.end(
      `data: ${JSON.stringify({ candidates: [candidate(rest, true)], usageMetadata: USAGE, modelVersion: model })}\r\n\r\n`,
    );
    return;
  }
  res.end(
    `data: ${JSON.stringify({ candidates: [candidate(plan, true)], usageMetadata: USAGE, modelVersion: model })}\r\n\r\n`,
  );
}

function handle(fake: FakeGemini, req: IncomingMessage, res: ServerResponse, raw: string): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  const headers = flattenHeaders(req);
  fake.seen.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers, body: parseJson(raw) });
  if (headers['x-goog-api-key'] !== fake.key) {
    return sendJson(res, 400, {
      error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
    });
  }
  if (req.method === 'GET' && url.pathname === '/v1beta/models') {
    const models = ['gemini-2.5-flash', 'gemini-2.5-pro'].map((id) => ({
      name: `models/${id}`,
      displayName: id,
      supportedGenerationMethods: ['generateContent', 'countTokens'],
    }));
    return sendJson(res, 200, {
      models: [...models, { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] }],
    });
  }
  if (url.pathname.endsWith(':generateContent')) return answer(fake, req, res, url.pathname, false);
  if (url.pathname.endsWith(':streamGenerateContent') && url.searchParams.get('alt') === 'sse') {
    return answer(fake, req, res, url.pathname, true);
  }
  sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
}

export async function startFakeGemini(key = 'AIza-fake-gemini-key-0000'): Promise<FakeGemini> {
  const sockets = new Set<Socket>();
  const server = createServer();
  const fake: FakeGemini = { url: '', key, seen: [], script: [], close: () => closeServer(server, sockets, []) };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(fake, req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A config-file entry for a gemini connection pointing at the fake. */
export function geminiConnection(
  name: string,
  fake: FakeGemini,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { name, kind: 'gemini', baseUrl: fake.url, apiKey: fake.key, ...extra };
}
