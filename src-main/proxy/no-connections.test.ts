import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/*
 * Issue 21 §12: with no connection at all, Leeway's refusal was a 404 model_not_found, which Claude
 * Code replaces with "There's an issue with the selected model". It must say what to do instead, in
 * the client's format, as a status every client shows as it is, and must not invite a retry.
 */
let h: RunningLeeway | null = null;
let fake: FakeUpstream | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
  await fake?.close();
  fake = null;
});

interface Answer {
  status: number;
  headers: Headers;
  json: { type?: string; error?: { type?: string; message?: string; code?: string }; leeway?: { code?: string } };
}

async function ask(leeway: RunningLeeway, format: 'anthropic' | 'openai', model: string): Promise<Answer> {
  const anthropic = format === 'anthropic';
  const res = await fetch(`${leeway.url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers: anthropic
      ? { 'content-type': 'application/json', 'x-api-key': leeway.key, 'anthropic-version': '2023-06-01' }
      : { 'content-type': 'application/json', authorization: `Bearer ${leeway.key}` },
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Answer['json'] };
}

describe('no connection to serve from (issue 21 §12)', () => {
  it('issue 21 §12: with no connections, both formats are told to add one in the dashboard or a config file, 400 and x-should-retry: false', async () => {
    h = await startLeeway({});
    const dashboard = `${h.url}/`;
    const anthropic = await ask(h, 'anthropic', 'claude-sonnet-4-5');
    expect(anthropic.status).toBe(400);
    expect(anthropic.headers.get('x-should-retry')).toBe('false');
    expect(anthropic.headers.get('retry-after')).toBeNull();
    expect(anthropic.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      leeway: { code: 'no_connections' },
    });
    expect(anthropic.json.error?.message).toBe(
      `No connections are set up in Leeway: add one in the dashboard at ${dashboard} or in a config file (leeway start --config <file>)`,
    );

    const openai = await ask(h, 'openai', 'gpt-4o');
    expect(openai.status).toBe(400);
    expect(openai.headers.get('x-should-retry')).toBe('false');
    expect(openai.json.error).toMatchObject({ type: 'invalid_request_error', code: 'no_connections' });
    expect(openai.json.error?.message).toContain(`add one in the dashboard at ${dashboard}`);
    // The dashboard link in an answer never carries the admin token.
    expect(JSON.stringify([anthropic.json, openai.json])).not.toContain(h.adminToken);

    const rows = await h.core.router.call('activity.list', { limit: 10 });
    const logged = rows.ok ? (rows.value as { status: number; errorCode: string | null }[]) : [];
    expect(logged.map((r) => [r.status, r.errorCode])).toEqual([
      [400, 'no_connections'],
      [400, 'no_connections'],
    ]);
  });

  it("issue 21 §12, ROUTE-8: once a connection exists, even a disabled one, the answer stays ROUTE-8's 404 no_executable_targets", async () => {
    fake = await startFakeUpstream({ format: 'anthropic' });
    h = await startLeeway({ connections: [anthropicConnection('a1', fake.url, { enabled: false })] });
    const answer = await ask(h, 'anthropic', 'claude-sonnet-4-5');
    expect(answer.status).toBe(404);
    expect(answer.json.leeway?.code).toBe('no_executable_targets');
    expect(fake.requests).toHaveLength(0);
  });
});
