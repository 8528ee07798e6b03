import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway } from '../testing/start-leeway';
import { createUpstreamPools, envProxySettings, isLoopbackOrigin, type UpstreamPools } from './upstream-pools';

/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY for upstream traffic (issue 13 §8), over real loopback HTTP:
 * a tiny CONNECT proxy that records every tunnel and sends hosts under `.test` to the loopback
 * upstream, so a "remote" origin can be served without a network.
 */
interface TinyProxy {
  url: string;
  tunnels: string[];
  close(): Promise<void>;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const listen = (server: Server | HttpServer): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

async function startTinyProxy(upstreamPort: number): Promise<TinyProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', (head: Buffer) => {
      const [method = '', target = ''] = head.toString('latin1').split('\r\n')[0]?.split(' ') ?? [];
      tunnels.push(`${method} ${target}`);
      const host = target.split(':')[0] ?? '';
      // Only names under .test are "reachable"; anything else (e.g. :443 for TLS) is refused.
      if (method !== 'CONNECT' || !host.endsWith('.test') || target.endsWith(':443')) {
        client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const upstream = connect(upstreamPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(upstream);
        upstream.pipe(client);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    });
  });
  const port = await listen(server);
  const proxy = {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  open.push(proxy);
  return proxy;
}

/** A plain upstream that says which Host it was asked for. */
async function startUpstream(): Promise<{ port: number; hosts: string[] }> {
  const hosts: string[] = [];
  const server = createHttpServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true }));
  });
  const port = await listen(server);
  open.push({
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
  return { port, hosts };
}

function pools(env: Record<string, string>): UpstreamPools {
  const p = createUpstreamPools({ proxy: envProxySettings(env), connectTimeoutMs: 2_000 });
  open.push(p);
  return p;
}

async function get(p: UpstreamPools, origin: string, proxy?: string): Promise<number> {
  const res = await p.forOrigin(origin, proxy).request({ method: 'GET', path: '/v1/models', headersTimeout: 5_000 });
  await res.body.text();
  return res.statusCode;
}

describe('proxy variables from the environment', () => {
  it('issue 13 §8: only HTTPS_PROXY or HTTP_PROXY turn proxying on; lower case wins; NO_PROXY alone changes nothing', () => {
    expect(envProxySettings({})).toBeNull();
    expect(envProxySettings({ NO_PROXY: 'example.com', HTTPS_PROXY: ' ' })).toBeNull();
    expect(
      envProxySettings({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', NO_PROXY: 'a.com' }),
    ).toEqual({
      httpProxy: '',
      httpsProxy: 'http://lower:2',
      noProxy: 'a.com',
    });
  });

  it('issue 13 §8: loopback origins are recognised in every spelling', () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:11434', 'http://[::1]:9000', 'http://127.1.2.3'])
      expect(isLoopbackOrigin(origin), origin).toBe(true);
    for (const origin of ['https://api.anthropic.com', 'http://10.0.0.2:8080', 'not a url'])
      expect(isLoopbackOrigin(origin), origin).toBe(false);
  });

  it('issue 13 §8: with HTTP_PROXY set, a remote upstream is reached through the proxy (CONNECT) and answers', async () => {
    const up = await startUpstream();
    const proxy = await startTinyProxy(up.port);
    const p = pools({ HTTP_PROXY: proxy.url });
    expect(await get(p, `http://api.upstream.test:${up.port}`)).toBe(200);
    expect(await get(p, `http://api.upstream.test:${up.port}`)).toBe(200);
    // Every tunnel asked for the upstream by name, and the upstream saw its own name as Host.
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`CONNECT api.upstream.test:${up.port}`]));
    expect(up.hosts).toEqual([`api.upstream.test:${up.port}`, `api.upstream.test:${up.port}`]);
  });

  it('issue 13 §8: HTTPS_PROXY carries https upstreams (the tunnel asks for port 443)', async () => {
    const up = await startUpstream();
    const proxy = await startTinyProxy(up.port);
    const p = pools({ HTTPS_PROXY: proxy.url });
    await expect(get(p, 'https://api.anthropic.test')).rejects.toThrow();
    expect(proxy.tunnels).toEqual(['CONNECT api.anthropic.test:443']);
  });

  it('issue 13 §8: a host listed in NO_PROXY (or a subdomain of it) goes direct, never through the proxy', async () => {
    const up = await startUpstream();
    const proxy = await startTinyProxy(up.port);
    const p = pools({ HTTP_PROXY: proxy.url, NO_PROXY: 'internal.test, other.example' });
    // Direct means a DNS lookup of a name that does not exist: it fails, and the proxy saw nothing.
    await expect(get(p, `http://llm.internal.test:${up.port}`)).rejects.toThrow();
    expect(proxy.tunnels).toEqual([]);
    expect(await get(p, `http://api.upstream.test:${up.port}`)).toBe(200);
    expect(proxy.tunnels).toEqual([`CONNECT api.upstream.test:${up.port}`]);
  });

  it('issue 13 §8: a loopback upstream (a local model server) is never proxied', async () => {
    const up = await startUpstream();
    const proxy = await startTinyProxy(up.port);
    const p = pools({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
    expect(await get(p, `http://127.0.0.1:${up.port}`)).toBe(200);
    expect(await get(p, `http://localhost:${up.port}`)).toBe(200);
    expect(proxy.tunnels).toEqual([]);
  });

  it("EGRESS-1: a connection's own outbound proxy wins over the environment's", async () => {
    const up = await startUpstream();
    const fromEnv = await startTinyProxy(up.port);
    const own = await startTinyProxy(up.port);
    const p = pools({ HTTP_PROXY: fromEnv.url });
    expect(await get(p, `http://api.upstream.test:${up.port}`, own.url)).toBe(200);
    expect(own.tunnels).toEqual([`CONNECT api.upstream.test:${up.port}`]);
    expect(fromEnv.tunnels).toEqual([]);
  });

  it('issue 13 §8: without proxy variables nothing changes: a remote name is looked up directly', async () => {
    const up = await startUpstream();
    const p = pools({ NO_PROXY: '*' });
    await expect(get(p, `http://api.upstream.test:${up.port}`)).rejects.toThrow(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
    expect(await get(p, `http://127.0.0.1:${up.port}`)).toBe(200);
  });
});

describe('proxy variables through Leeway', () => {
  it('issue 13 §8: a model request to a remote connection leaves through HTTP_PROXY, in the Anthropic wire format', async () => {
    const up = await startFakeUpstream({ format: 'anthropic', name: 'remote' });
    open.push(up);
    const port = Number(new URL(up.url).port);
    const proxy = await startTinyProxy(port);
    // The core reads the environment once, when it is created.
    process.env.HTTP_PROXY = proxy.url;
    const leeway = await startLeeway({
      connections: [
        anthropicConnection('remote', `http://api.remote.test:${port}`),
        anthropicConnection('local', up.url, { priority: 9 }),
      ],
    }).finally(() => delete process.env.HTTP_PROXY);
    open.push({ close: () => leeway.stop() });
    const res = await fetch(`${leeway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': leeway.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('remote');
    expect(((await res.json()) as { type: string }).type).toBe('message');
    expect(new Set(proxy.tunnels)).toEqual(new Set([`CONNECT api.remote.test:${port}`]));
  });
});
