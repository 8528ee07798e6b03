import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, errors, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestSignal } from './request-signal';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describe('the request signal (an AbortSignal by shape)', () => {
  it('PROD-18: calls each abort listener once, with an abort Event, and keeps the reason', () => {
    const signal = new RequestSignal();
    const seen: string[] = [];
    const once = (e: Event) => seen.push(`once:${e.type}`);
    const kept = { handleEvent: (e: Event) => seen.push(`object:${e.type}`) };
    signal.addEventListener('abort', once, { once: true });
    signal.addEventListener('abort', once, { once: true }); // a duplicate is ignored
    signal.addEventListener('abort', kept);
    signal.onabort = () => seen.push('onabort');
    const reason = new Error('client left');
    signal.abort(reason);
    signal.abort(new Error('again')); // a second abort changes nothing
    expect(seen).toEqual(['onabort', 'once:abort', 'object:abort']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(() => signal.throwIfAborted()).toThrow('client left');
  });

  it('PROD-18: a removed listener is not called; one added after the abort never is; a throwing one does not stop the rest', () => {
    const signal = new RequestSignal();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    signal.addEventListener('abort', () => {
      throw new Error('boom');
    });
    signal.addEventListener('abort', () => calls.push('after the thrower'));
    signal.abort();
    signal.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual(['after the thrower']);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('AbortError');
  });

  it('PROD-18: undici accepts it and an abort cancels a request in flight, closing its socket', async () => {
    let closed = false;
    server = createServer((req) => {
      req.socket.on('close', () => (closed = true));
      // Never answers: only the abort can end this request.
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent();
    const signal = new RequestSignal();
    const pending = request(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}', signal, dispatcher: agent });
    setTimeout(() => signal.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(Error);
    await expect(pending).rejects.not.toBeInstanceOf(errors.HeadersTimeoutError);
    for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
    await agent.close();
  });
});
