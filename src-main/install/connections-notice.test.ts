import { afterEach, describe, expect, it } from 'vitest';
import { connectionsNotice } from '../../bin/connections-notice.mjs';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/** What `leeway claude` prints before Claude Code starts (issue 21 §12), against a real core's admin API. */
const running: RunningLeeway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
});

async function leeway(config: Record<string, unknown>): Promise<RunningLeeway> {
  const h = await startLeeway(config);
  running.push(h);
  return h;
}

const noticeFor = (h: RunningLeeway, env: Record<string, string> = { LEEWAY_ADMIN_TOKEN: h.adminToken }) =>
  connectionsNotice({ env, dataDir: h.dataDir, proxyUrl: h.url });

describe('the connections notice of leeway claude (issue 21 §12)', () => {
  it('issue 21 §12: no connection: says so with the dashboard link that opens it, and the config-file way', async () => {
    const h = await leeway({});
    expect(await noticeFor(h)).toEqual([
      'Leeway: no connection is set up yet, so Claude Code cannot get an answer. Add one in the dashboard:',
      `  ${h.url}/?token=${h.adminToken}`,
      '  or name a config file when Leeway starts (--config FILE or LEEWAY_CONFIG; see leeway --help)',
    ]);
  });

  it('issue 21 §12: every connection disabled: says to enable one; an enabled connection: nothing to say', async () => {
    const off = await leeway({
      connections: [
        anthropicConnection('a1', 'http://127.0.0.1:9', { enabled: false }),
        anthropicConnection('a2', 'http://127.0.0.1:9', { enabled: false }),
      ],
    });
    expect(await noticeFor(off)).toEqual([
      'Leeway: every connection is disabled (2), so Claude Code cannot get an answer. Enable one in the dashboard:',
      `  ${off.url}/?token=${off.adminToken}`,
    ]);
    const on = await leeway({ connections: [anthropicConnection('a1', 'http://127.0.0.1:9')] });
    expect(await noticeFor(on)).toBeNull();
  });

  it('issue 21 §12: without an admin API to ask (wrong token), it stays silent: the proxy refusal still says what to do', async () => {
    const h = await leeway({});
    expect(await noticeFor(h, { LEEWAY_ADMIN_TOKEN: 'not-the-admin-token-0000' })).toBeNull();
  });
});
