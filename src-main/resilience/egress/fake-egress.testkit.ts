import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A CONNECT the fake proxy accepted: where to, and the credentials it carried. */
export interface SeenTunnel {
  target: string;
  proxyAuthorization: string | null;
}

/**
 * Test double for an outbound HTTP proxy on loopback (the CONNECT tunnelling undici's ProxyAgent
 * speaks). Tunnels to `probe.invalid` reach this proxy's own IP probe, which answers `egressIp`:
 * each fake proxy is one "way out" with its own public address.
 */
export interface FakeEgress {
  proxyUrl: string;
  /** The same proxy URL with credentials in its userinfo. */
  proxyUrlWithAuth(user: string, password: string): string;
  readonly tunnels: readonly SeenTunnel[];
  close(): Promise<void>;
}

export const PROBE_HOST = 'probe.invalid';
export const PROBE_URL = `http://${PROBE_HOST}/ip`;

const listen = (server: Server | HttpServer): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

export async function startFakeEgress(egressIp: string): Promise<FakeEgress> {
  const probe = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${egressIp}\n`);
  });
  const probePort = await listen(probe);
  const tunnels: SeenTunnel[] = [];
  const sockets = new Set<Socket>();

  const proxy = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const rest = head.subarray(end + 4);
      const [method, target = ''] = (lines[0] ?? '').split(' ');
      const auth = lines.find((l) => l.toLowerCase().startsWith('proxy-authorization:'));
      if (method !== 'CONNECT') {
        client.end('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      tunnels.push({ target, proxyAuthorization: auth ? auth.slice(auth.indexOf(':') + 1).trim() : null });
      const [host = '', port = '80'] = target.split(':');
      const upstream = host === PROBE_HOST ? connect(probePort, '127.0.0.1') : connect(Number(port), host);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
      });
    };
    client.on('data', onData);
  });
  const proxyPort = await listen(proxy);

  return {
    proxyUrl: `http://127.0.0.1:${proxyPort}`,
    proxyUrlWithAuth: (user, password) => `http://${user}:${password}@127.0.0.1:${proxyPort}`,
    tunnels,
    async close() {
      for (const socket of sockets) socket.destroy();
      probe.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => proxy.close(() => resolve())),
        new Promise<void>((resolve) => probe.close(() => resolve())),
      ]);
    },
  };
}
