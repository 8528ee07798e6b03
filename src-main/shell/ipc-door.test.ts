import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../src-shared/contract/errors';
import { createRouter, type Handlers } from '../api/router';
import { createStubHandlers } from '../testing/stub-handlers';
import { createIpcHandler, describeFrame, senderInfoOf, type IpcEventLike } from './ipc-door';

const WINDOW_ID = 7;
const trusted: IpcEventLike = {
  sender: { id: WINDOW_ID },
  senderFrame: { url: 'file:///app/out/renderer/index.html#/keys', parent: null },
};

function door(handlers: Partial<Handlers> = {}) {
  const logs: string[] = [];
  const router = createRouter(createStubHandlers(handlers));
  const handle = createIpcHandler({ router, windowWebContentsId: () => WINDOW_ID, log: (line) => logs.push(line) });
  return { handle, logs };
}

describe('IPC door', () => {
  it('PROD-8: a call from our window reaches the router and answers its Result', async () => {
    const { handle, logs } = door();
    const result = await handle(trusted, 'app.info', undefined);
    expect(result).toMatchObject({ ok: true, value: { proxyUrl: 'http://127.0.0.1:7431' } });
    expect(logs).toEqual([]);
  });

  it('PROD-18: an unknown sender is refused as data and logged without its input or full URL', async () => {
    const { handle, logs } = door();
    const strangers: IpcEventLike[] = [
      { ...trusted, sender: { id: 99 } },
      { ...trusted, senderFrame: { url: 'https://evil.example/steal?token=abc123', parent: null } },
      { ...trusted, senderFrame: { url: 'file:///app/out/renderer/index.html', parent: {} } },
      { ...trusted, senderFrame: null },
    ];
    for (const event of strangers) {
      const result = await handle(event, 'connections.upsert', {
        name: 'x',
        kind: 'anthropic',
        secret: { type: 'api-key', apiKey: 'sk-ant-SECRET' },
      });
      expect(result).toEqual({
        ok: false,
        error: { code: 'forbidden_origin', message: 'IPC call from an untrusted frame was refused' },
      });
    }
    expect(logs).toHaveLength(4);
    expect(logs[1]).toBe(
      'Leeway: refused IPC call connections.upsert from an untrusted sender (webContents 7, main frame, https://evil.example)',
    );
    for (const line of logs) {
      expect(line).not.toContain('SECRET');
      expect(line).not.toContain('abc123');
    }
  });

  it('PROD-18: calls before the window exists are refused', async () => {
    const router = createRouter(createStubHandlers());
    const handle = createIpcHandler({ router, windowWebContentsId: () => null, log: () => {} });
    expect(await handle(trusted, 'app.info', undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden_origin' },
    });
  });

  it('PROD-8: invalid input answers invalid_input, an unknown or non-string method is refused, none of it throws', async () => {
    const { handle } = door();
    expect(await handle(trusted, 'app.setPaused', { paused: 'yes' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await handle(trusted, 'cooldowns.clear', { target: 'everything' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await handle(trusted, 'nope.nothing', {})).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await handle(trusted, 42, {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await handle(trusted, { toString: () => 'app.info' }, {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('PROD-8: a handler bug or a throwing router still answers a Result', async () => {
    const { handle } = door({
      'combos.remove': () => {
        throw new Error('boom sk-live-123');
      },
    });
    expect(await handle(trusted, 'combos.remove', { name: 'x' })).toEqual({
      ok: false,
      error: { code: 'internal_error', message: 'Internal error in combos.remove' },
    });
    const throwing = createIpcHandler({
      router: { call: () => Promise.reject(new Error('sk-live-456')) },
      windowWebContentsId: () => WINDOW_ID,
      log: () => {},
    });
    expect(await throwing(trusted, 'app.info', undefined)).toEqual({
      ok: false,
      error: { code: 'internal_error', message: 'Internal error' },
    });
  });

  it('PROD-8: expected refusals from a handler pass through unchanged', async () => {
    const { handle } = door({
      'connections.remove': ({ name }) =>
        name === 'ghost' ? fail('not_found', 'No connection "ghost"') : ok({ removed: true }),
    });
    expect(await handle(trusted, 'connections.remove', { name: 'ghost' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No connection "ghost"' },
    });
  });

  it('PROD-18: the sender facts come from the event, and frames are described by origin only', () => {
    expect(senderInfoOf(trusted)).toEqual({
      webContentsId: 7,
      frameUrl: 'file:///app/out/renderer/index.html#/keys',
      isMainFrame: true,
    });
    expect(senderInfoOf({ sender: { id: 3 }, senderFrame: null })).toEqual({
      webContentsId: 3,
      frameUrl: null,
      isMainFrame: false,
    });
    expect(describeFrame('file:///home/me/secret/path.html')).toBe('file:');
    expect(describeFrame('https://user:pw@evil.example:8443/a?b#c')).toBe('https://evil.example:8443');
    expect(describeFrame('::')).toBe('unparsable URL');
    expect(describeFrame(null)).toBe('no frame');
    expect(describeFrame('data:text/html,<b>secret</b>')).toBe('data:');
  });
});
