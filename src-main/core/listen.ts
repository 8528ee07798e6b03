import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fail, ok, type Result } from '../../src-shared/contract/errors';

/** Binds a server, turning "port in use" into one line that names the flag to change it. */
export function listen(server: Server, host: string, port: number, flag: string): Promise<Result<number>> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        resolve(
          fail(
            'conflict',
            `Port ${port} on ${host} is already in use; choose another with ${flag} <port> (0 picks a free one)`,
          ),
        );
      } else if (error.code === 'EACCES') {
        resolve(fail('conflict', `No permission to listen on port ${port}; choose another with ${flag} <port>`));
      } else if (error.code === 'EADDRNOTAVAIL') {
        resolve(fail('invalid_input', `Cannot listen on ${host}: no such local address (check --host)`));
      } else {
        resolve(fail('internal_error', `Cannot listen on ${host}:${port} (${error.code ?? 'error'})`));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(ok((server.address() as AddressInfo).port));
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** `http://host:port` with IPv6 hosts bracketed. */
export function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
