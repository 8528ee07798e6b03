import { EnvHttpProxyAgent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import { isLoopbackHost } from '../kernel/loopback';

/** A request to one upstream origin; the origin is bound by the dispatcher. */
export type OriginRequest = Omit<Dispatcher.RequestOptions, 'origin'>;

/** What callers send through: a Pool for direct traffic, or a proxy agent bound to the origin. */
export interface OriginDispatcher {
  request(options: OriginRequest): Promise<Dispatcher.ResponseData>;
}

/**
 * Keep-alive connection pools, one per upstream origin, so every request reuses warm sockets. A
 * connection with its own outbound proxy (EGRESS) goes through one undici ProxyAgent per proxy URL
 * instead, which tunnels (CONNECT) to the origin and keeps those tunnels warm the same way. Without
 * one, `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` from the environment apply (undici's
 * EnvHttpProxyAgent) to every upstream but a loopback one.
 */
export interface UpstreamPools {
  forOrigin(origin: string, outboundProxyUrl?: string | null): OriginDispatcher;
  close(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy variables in force, as EnvHttpProxyAgent options. */
export interface EnvProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

function fromEnv(env: Env, name: string): string {
  // Lower case first, as undici and curl read them.
  for (const value of [env[name.toLowerCase()], env[name]])
    if (value !== undefined && value.trim() !== '') return value.trim();
  return '';
}

/**
 * The environment's proxy settings, or null when neither `HTTPS_PROXY` nor `HTTP_PROXY` is set
 * (then nothing changes: upstreams are reached directly). `NO_PROXY` alone proxies nothing.
 */
export function envProxySettings(env: Env): EnvProxySettings | null {
  const httpProxy = fromEnv(env, 'HTTP_PROXY');
  const httpsProxy = fromEnv(env, 'HTTPS_PROXY');
  if (httpProxy === '' && httpsProxy === '') return null;
  return { httpProxy, httpsProxy, noProxy: fromEnv(env, 'NO_PROXY') };
}

/** True when the origin is this machine: a local model server is never sent through a proxy. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * `proxy`: the environment's proxy variables as the entry read them (`envProxySettings`); absent or
 * null, upstreams are reached directly.
 */
export function createUpstreamPools(
  options: { connectTimeoutMs?: number; proxy?: EnvProxySettings | null } = {},
): UpstreamPools {
  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const socketOptions = {
    connections: 128,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connect: { timeout: connectTimeout },
  };
  // The environment of the process that started Leeway decides, as for any CLI tool.
  const envProxy = options.proxy ?? null;
  let envAgent: EnvHttpProxyAgent | null = null;
  const pools = new Map<string, Pool>();
  const agents = new Map<string, ProxyAgent>();
  // Bound wrappers are cached so the proxied hot path allocates nothing per request.
  const bound = new Map<string, OriginDispatcher>();

  function agentFor(proxyUrl: string): ProxyAgent {
    let agent = agents.get(proxyUrl);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxyUrl, ...socketOptions });
      agents.set(proxyUrl, agent);
    }
    return agent;
  }

  function bind(key: string, origin: string, dispatcher: () => Dispatcher): OriginDispatcher {
    let wrapper = bound.get(key);
    if (!wrapper) {
      const target = dispatcher();
      wrapper = { request: (request) => target.request({ ...request, origin }) };
      bound.set(key, wrapper);
    }
    return wrapper;
  }

  return {
    forOrigin(origin, outboundProxyUrl) {
      if (outboundProxyUrl) return bind(`${outboundProxyUrl} ${origin}`, origin, () => agentFor(outboundProxyUrl));
      if (envProxy && !isLoopbackOrigin(origin)) {
        // EnvHttpProxyAgent applies NO_PROXY per origin and keeps one pool per origin itself.
        return bind(
          `env ${origin}`,
          origin,
          () => (envAgent ??= new EnvHttpProxyAgent({ ...envProxy, ...socketOptions })),
        );
      }
      let pool = pools.get(origin);
      if (!pool) {
        pool = new Pool(origin, socketOptions);
        pools.set(origin, pool);
      }
      return pool;
    },
    async close() {
      const all: Dispatcher[] = [...pools.values(), ...agents.values(), ...(envAgent ? [envAgent] : [])];
      pools.clear();
      agents.clear();
      bound.clear();
      envAgent = null;
      // destroy, not close: a hung upstream must not keep shutdown waiting.
      await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
    },
  };
}
