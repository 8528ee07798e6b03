import { describe, expect, it } from 'vitest';
import { recordingRouter } from '../shell-fixtures.testkit';
import { dispatchTrayAction, type TrayAction, type TrayActionDeps } from './tray-actions';

const PROXY = 'http://127.0.0.1:7431';

function fakeDeps(answers: Record<string, unknown> = {}) {
  const router = recordingRouter({ 'app.info': { proxyUrl: PROXY, paused: false }, ...answers });
  const effects: string[] = [];
  const clipboard: string[] = [];
  let openAtLogin = false;
  let openLogsError = '';
  const deps: TrayActionDeps = {
    router,
    clipboard: {
      writeText: async (text) => {
        clipboard.push(text);
      },
    },
    openWindow: () => effects.push('open'),
    openLogs: async () => {
      effects.push('open-logs');
      return openLogsError;
    },
    loginItem: {
      supported: true,
      get: () => openAtLogin,
      set: (enabled) => {
        openAtLogin = enabled;
        effects.push(`login:${enabled}`);
      },
    },
    quit: () => effects.push('quit'),
    redraw: () => effects.push('redraw'),
  };
  return { deps, router, effects, clipboard, failOpenLogs: (error: string) => (openLogsError = error) };
}

describe('dispatchTrayAction', () => {
  it('PROD-4 COOL-10: clear actions call cooldowns.clear with the right target; reset calls connections.reset', async () => {
    const cases: [TrayAction, string, unknown][] = [
      [{ kind: 'clear-all' }, 'cooldowns.clear', { target: 'all' }],
      [
        { kind: 'clear-connection', connection: 'anthropic-main' },
        'cooldowns.clear',
        { target: 'connection', connection: 'anthropic-main' },
      ],
      [
        { kind: 'clear-provider', provider: 'openai@https://api.openai.com' },
        'cooldowns.clear',
        { target: 'provider', provider: 'openai@https://api.openai.com' },
      ],
      [
        { kind: 'clear-model', key: 'anthropic:c1:claude-opus' },
        'cooldowns.clear',
        { target: 'model', key: 'anthropic:c1:claude-opus' },
      ],
      [{ kind: 'reset-connection', connection: 'dead' }, 'connections.reset', { name: 'dead' }],
      // ISSUE-24: a held request's action goes to held.act.
      [{ kind: 'held', id: 'h4', action: 'go-now' }, 'held.act', { id: 'h4', action: 'go-now' }],
      [{ kind: 'pause' }, 'app.setPaused', { paused: true }],
      [{ kind: 'resume' }, 'app.setPaused', { paused: false }],
    ];
    for (const [action, method, input] of cases) {
      const { deps, router, effects } = fakeDeps();
      const result = await dispatchTrayAction(action, deps);
      expect(result.ok).toBe(true);
      expect(router.calls).toEqual([{ method, input }]);
      expect(effects).toEqual([]);
    }
  });

  it('PROD-13: the copy actions put the real proxy URL and a key placeholder on the clipboard', async () => {
    const claude = fakeDeps();
    await dispatchTrayAction({ kind: 'copy-claude-setup' }, claude.deps);
    expect(claude.router.calls).toEqual([{ method: 'app.info', input: undefined }]);
    expect(claude.clipboard).toEqual([
      `export ANTHROPIC_BASE_URL=${PROXY}\nexport ANTHROPIC_AUTH_TOKEN=<your-leeway-key>`,
    ]);

    const aider = fakeDeps();
    await dispatchTrayAction({ kind: 'copy-aider-setup' }, aider.deps);
    expect(aider.clipboard).toEqual([`aider --openai-api-base ${PROXY}/v1 --openai-api-key <your-leeway-key>`]);
  });

  it("ISSUE-23 §2: 'Copy agent setup' asks the core for the agent's snippet (no key: the tray knows none) and copies it", async () => {
    const text = 'model_provider = "leeway"';
    const { deps, router, clipboard } = fakeDeps({ 'setup.agent.snippet': { agent: 'codex', text } });
    const result = await dispatchTrayAction({ kind: 'copy-agent-setup', agent: 'codex' }, deps);
    expect(result).toEqual({ ok: true, value: { copied: text } });
    expect(router.calls).toEqual([{ method: 'setup.agent.snippet', input: { agent: 'codex' } }]);
    expect(clipboard).toEqual([text]);

    const failing = fakeDeps({ 'setup.agent.snippet': new Error('core not started') });
    expect((await dispatchTrayAction({ kind: 'copy-agent-setup', agent: 'aider' }, failing.deps)).ok).toBe(false);
    expect(failing.clipboard).toEqual([]);
  });

  it('PROD-13: when the core cannot say its URL, nothing is copied and the failure is returned', async () => {
    const { deps, clipboard } = fakeDeps({ 'app.info': new Error('core not started') });
    const result = await dispatchTrayAction({ kind: 'copy-claude-setup' }, deps);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(clipboard).toEqual([]);
  });

  it('PROD-4: open, toggle-login and quit are shell effects that never touch the core', async () => {
    const { deps, router, effects } = fakeDeps();
    await dispatchTrayAction({ kind: 'open' }, deps);
    expect(await dispatchTrayAction({ kind: 'toggle-login' }, deps)).toEqual({
      ok: true,
      value: { openAtLogin: true },
    });
    expect(await dispatchTrayAction({ kind: 'toggle-login' }, deps)).toEqual({
      ok: true,
      value: { openAtLogin: false },
    });
    await dispatchTrayAction({ kind: 'quit' }, deps);
    expect(effects).toEqual(['open', 'login:true', 'redraw', 'login:false', 'redraw', 'quit']);
    expect(router.calls).toEqual([]);
  });

  it('ISSUE-13: "Open logs" opens the logs folder without touching the core; a failure is a Result naming it', async () => {
    const { deps, router, effects, failOpenLogs } = fakeDeps();
    expect(await dispatchTrayAction({ kind: 'open-logs' }, deps)).toEqual({ ok: true, value: null });
    failOpenLogs('Failed to open path');
    expect(await dispatchTrayAction({ kind: 'open-logs' }, deps)).toMatchObject({
      ok: false,
      error: { code: 'internal_error', message: 'Could not open the logs folder: Failed to open path' },
    });
    expect(effects).toEqual(['open-logs', 'open-logs']);
    expect(router.calls).toEqual([]);
  });

  it('PROD-4: a login item that fails to change answers a Result, not a throw, and the menu still redraws', async () => {
    const { deps, effects } = fakeDeps();
    deps.loginItem.set = () => {
      throw new Error('EACCES');
    };
    expect(await dispatchTrayAction({ kind: 'toggle-login' }, deps)).toMatchObject({
      ok: false,
      error: { code: 'internal_error' },
    });
    expect(effects).toEqual(['redraw']);
  });
});
