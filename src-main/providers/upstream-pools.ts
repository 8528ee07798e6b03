import { Pool, ProxyAgent, type Dispatcher } from 'undici';

/** A request to one upstream origin; the origin is bound by the dispatcher. */
export type OriginRequest = Omit<Dispatcher.RequestOptions, 'origin'>;

/** What callers send through: a Pool for direct traffic, or a proxy agent bound to the origin. */
export interface OriginDispatcher {
  request(options: OriginRequest): Promise<Dispatcher.ResponseData>;
}

/**
 * Keep-alive connection pools, one per upstream origin, so every request reuses warm sockets. A
 * connection with its own outbound proxy (EGRESS) goes through one undici ProxyAgent per proxy URL
 * instead, which tunnels (CONNECT) to the origin and keeps those tunnels warm the same way.
 */
export interface UpstreamPools {
  forOrigin(origin: string, outboundProxyUrl?: string | null): OriginDispatcher;
  close(): Promise<void>;
}

export function createUpstreamPools(options: { connectTimeoutMs?: number } = {}): UpstreamPools {
  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const pools = new Map<string, Pool>();
  const agents = new Map<string, ProxyAgent>();
  // Bound wrappers are cached so the proxied hot path allocates nothing per request.
  const bound = new Map<string, OriginDispatcher>();

  function agentFor(proxyUrl: string): ProxyAgent {
    let agent = agents.get(proxyUrl);
    if (!agent) {
      agent = new ProxyAgent({
        uri: proxyUrl,
        connections: 128,
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 120_000,
        connect: { timeout: connectTimeout },
      });
      agents.set(proxyUrl, agent);
    }
    return agent;
  }

  return {
    forOrigin(origin, outboundProxyUrl) {
      if (outboundProxyUrl) {
        const key = `${outboundProxyUrl} ${origin}`;
        let dispatcher = bound.get(key);
        if (!dispatcher) {
          const agent = agentFor(outboundProxyUrl);
          dispatcher = { request: (request) => agent.request({ ...request, origin }) };
          bound.set(key, dispatcher);
        }
        return dispatcher;
      }
      let pool = pools.get(origin);
      if (!pool) {
        pool = new Pool(origin, {
          connections: 128,
          keepAliveTimeout: 30_000,
          keepAliveMaxTimeout: 120_000,
          connect: { timeout: connectTimeout },
        });
        pools.set(origin, pool);
      }
      return pool;
    },
    async close() {
      const all: Dispatcher[] = [...pools.values(), ...agents.values()];
      pools.clear();
      agents.clear();
      bound.clear();
      // destroy, not close: a hung upstream must not keep shutdown waiting.
      await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
    },
  };
}
