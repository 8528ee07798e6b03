/**
 * A loopback fake of the Claude subscription service Leeway's claude-oauth connections talk to:
 * the Messages API with `anthropic-ratelimit-unified-*` usage headers, a scriptable usage wall with
 * the low-priority lane (slot_busy / 529 steps), the OAuth token endpoint with rotation and
 * `invalid_grant`, and the session-limit reset endpoints. Every request is recorded with its headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { PlanContext, ResponsePlan } from '../fake-upstream-errors';
import { createExchange, type Exchange } from '../fake-upstream-exchange';
import { closeServer, flattenHeaders, parseJson, poll } from '../fake-server-kit';
import { DEFAULT_MODELS, modelList } from '../fake-upstream-models';
import { estimateTokens } from '../fake-upstream-responses';
import {
  bootstrapAnswer,
  claimAnswer,
  fakeToken,
  hasCurrentToken,
  jsonPlan,
  tokenAnswer,
  unauthorized,
  usageStatusAnswer,
  type AccountState,
} from './fake-claude-account';
import { messagesAnswer, type MessagesState } from './fake-claude-messages';
import type { FakeClaude, FakeClaudeOptions, RecordedRequest } from './fake-claude-types';

export type * from './fake-claude-types';

const HOUR_S = 3600;
const CLAIM_PATH = /^\/api\/organizations\/([^/]+)\/reset_rate_limits$/;

const pathOf = (r: RecordedRequest): string => new URL(r.path, 'http://fake').pathname;

/** Starts the fake on 127.0.0.1 and an OS-chosen port. */
export async function startFakeClaude(options: FakeClaudeOptions = {}): Promise<FakeClaude> {
  const name = options.name ?? 'claude';
  const nowS = () => Math.floor(Date.now() / 1000);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const exchanges = new Set<Exchange>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const account: AccountState = {
    name,
    organizationUuid: options.organizationUuid ?? '6f1d2c3b-0a9e-4d8c-b7a6-5e4f3d2c1b0a',
    tokens: {
      accessToken: options.accessToken ?? fakeToken('access', name, 0),
      refreshToken: options.refreshToken ?? fakeToken('refresh', name, 0),
      issued: 0,
    },
    token: { mode: 'rotate' },
    offer: { eligible: true, arm: 'reset', available: true, nextAvailableAt: null },
    claim: { result: 'reset' },
    onReset: () => void (state.wall = null),
    now: () => Date.now(),
  };
  const state: MessagesState = {
    account,
    usage: {
      fiveHour: { utilization: 0.42, resetAt: nowS() + 2 * HOUR_S },
      sevenDay: { utilization: 0.17, resetAt: nowS() + 72 * HOUR_S },
    },
    wall: null,
    slow: [],
    steps: [],
    text: options.text,
  };

  const contextFor = (seq: number): PlanContext => ({
    format: 'anthropic',
    name,
    seq,
    models: DEFAULT_MODELS.anthropic,
    requireAuth: false,
    apiKey: undefined,
  });

  const route = (record: RecordedRequest, exchange: Exchange): Promise<void> => {
    const pathname = pathOf(record);
    const key = `${record.method} ${pathname}`;
    const ctx = contextFor(record.seq);
    const claim = CLAIM_PATH.exec(pathname);
    if (record.method === 'POST' && claim?.[1])
      return exchange.send(claimAnswer(account, record, decodeURIComponent(claim[1])));
    switch (key) {
      case 'POST /v1/messages':
        return exchange.send(messagesAnswer(ctx, record, state));
      case 'POST /v1/messages/count_tokens':
        return exchange.send(
          hasCurrentToken(account, record)
            ? jsonPlan(200, { input_tokens: estimateTokens(record.body) })
            : unauthorized(),
        );
      case 'GET /v1/models':
        return exchange.send(hasCurrentToken(account, record) ? jsonPlan(200, modelList(ctx)) : unauthorized());
      case 'POST /v1/oauth/token':
        return answerToken(record, exchange);
      case 'GET /api/oauth/usage':
        return exchange.send(usageStatusAnswer(account, record));
      case 'GET /api/claude_cli/bootstrap':
        return exchange.send(bootstrapAnswer(account, record));
      default:
        return exchange.send(
          jsonPlan(404, { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } }),
        );
    }
  };

  const answerToken = async (record: RecordedRequest, exchange: Exchange): Promise<void> => {
    const delay = account.token.delayMs ?? 0;
    if (delay > 0 && !(await exchange.wait(delay))) return;
    // Decided after the delay: a refresh racing another sees the rotation, as the real endpoint would.
    const plan: ResponsePlan = tokenAnswer(account, record);
    return exchange.send(plan);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      const record: RecordedRequest = {
        seq: requests.length + 1,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flattenHeaders(req),
        body,
        json: parseJson(body),
        aborted: false,
        response: null,
      };
      requests.push(record);
      const exchange = createExchange(res, record, () => closing);
      exchanges.add(exchange);
      res.on('close', () => exchanges.delete(exchange));
      route(record, exchange).catch(() => res.destroy());
    });
  };

  const server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const only = (method: string, test: (pathname: string) => boolean) => () =>
    requests.filter((r) => r.method === method && test(pathOf(r)));

  const fake: FakeClaude = {
    name,
    url,
    tokenUrl: `${url}/v1/oauth/token`,
    organizationUuid: account.organizationUuid,
    requests,
    get tokens() {
      return account.tokens;
    },
    messages: only('POST', (p) => p === '/v1/messages'),
    tokenCalls: only('POST', (p) => p === '/v1/oauth/token'),
    statusCalls: only('GET', (p) => p === '/api/oauth/usage'),
    claimCalls: only('POST', (p) => CLAIM_PATH.test(p)),
    bootstrapCalls: only('GET', (p) => p === '/api/claude_cli/bootstrap'),
    setWall: (wall) => void (state.wall = wall),
    get wall() {
      return state.wall;
    },
    enqueueSlow: (...steps) => void state.slow.push(...steps),
    enqueue: (...steps) => void state.steps.push(...steps),
    setUsage: (usage) => void (state.usage = { ...state.usage, ...usage }),
    get usage() {
      return state.usage;
    },
    setToken: (script) => void (account.token = script),
    revokeAccessToken: () => void (account.tokens.accessToken = null),
    setTokens: (tokens) => void Object.assign(account.tokens, tokens),
    setResetOffer: (offer) => void (account.offer = { ...account.offer, ...offer }),
    setClaim: (script) => void (account.claim = script),
    waitFor: (predicate, timeoutMs = 2000) => poll(() => predicate(fake), timeoutMs, `${name}: condition`),
    close: () => {
      closing = true;
      closed ??= closeServer(server, sockets, exchanges);
      return closed;
    },
  };
  return fake;
}

/** A claude-oauth config entry for `startLeeway` pointing at this fake (token endpoint included). */
export function claudeConnection(
  name: string,
  fake: FakeClaude,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const { providerSpecificData, ...rest } = extra;
  const psd =
    typeof providerSpecificData === 'object' && providerSpecificData !== null
      ? (providerSpecificData as Record<string, unknown>)
      : {};
  return {
    name,
    kind: 'claude-oauth',
    baseUrl: fake.url,
    accessToken: fake.tokens.accessToken ?? 'sk-ant-oat01-revoked',
    refreshToken: fake.tokens.refreshToken,
    expiresAt: Date.now() + 8 * HOUR_S * 1000,
    ...rest,
    providerSpecificData: { oauthTokenUrl: fake.tokenUrl, ...psd },
  };
}
