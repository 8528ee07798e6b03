import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeFetchJson } from './claude-assembly';
import { envProxySettings } from '../upstream-pools';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

describe('Claude token refresh and organisation lookup behind a proxy (issue 13 §8)', () => {
  it('HTTPS_PROXY / HTTP_PROXY carry them like upstream traffic; without them they go direct', async () => {
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }),
    );
    const tunnels: string[] = [];
    const proxy = createServer();
    // A CONNECT proxy: undici tunnels through it and the test sees which host was asked for.
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const proxyUrl = await listen(proxy);
    const request = { method: 'GET' as const, url: `${target}/token`, headers: {}, timeoutMs: 5_000 };

    expect(await claudeFetchJson(envProxySettings({ HTTP_PROXY: proxyUrl }))(request)).toEqual({
      status: 200,
      json: { ok: true },
    });
    expect(tunnels).toEqual([target.replace('http://', '')]);

    expect(await claudeFetchJson(envProxySettings({}))(request)).toEqual({ status: 200, json: { ok: true } });
    expect(tunnels).toHaveLength(1);
  });
});
