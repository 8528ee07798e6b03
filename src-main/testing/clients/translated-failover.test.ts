import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeClaude, claudeConnection, type FakeClaude } from '../fake-claude/fake-claude';
import { openaiConnection, type RunningLeeway } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 12 §5: a combo of a Claude subscription then GLM (OpenAI-compatible). With low priority
 * and limit reset off, the subscription's usage-wall 429 fails over to GLM and the Anthropic
 * client still gets a normal Anthropic stream, translated from GLM's Chat Completions stream.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const GLM_ANSWER = 'GLM took over while the subscription rests';
let claudes: FakeClaude[] = [];
afterEach(async () => {
  await Promise.all(claudes.map((c) => c.close()));
  claudes = [];
});

if (!binary)
  console.warn('Skipping the translated failover Claude Code test: the Claude Code native binary is not installed');

/** The served Messages rows once the log write after the answer landed, newest first. */
async function servedRows(leeway: RunningLeeway): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const rows = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
    if (rows.length > 0 || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function subscriptionThenGlm() {
  const sub = await startFakeClaude({ name: 'sub' });
  claudes.push(sub);
  sub.setWall({ resetAt: Math.floor(Date.now() / 1000) + 3600 });
  const glm = await harness.upstream({ format: 'openai', name: 'glm' });
  glm.setDefault({ kind: 'ok', text: GLM_ANSWER, deltas: 4 });
  const leeway = await harness.leeway({
    connections: [
      claudeConnection('sub', sub, { lowPriorityMode: false, autoLimitReset: false }),
      openaiConnection('glm', glm.url, { models: ['glm-4.6'] }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'sub', model: 'claude-sonnet-4-6' },
          { connection: 'glm', model: 'glm-4.6' },
        ],
      },
    ],
  });
  return { sub, glm, leeway };
}

describe('failover across formats (issue 12 §5)', () => {
  it('issue 12 §5: the subscription at its wall fails over to GLM; the Anthropic SDK reads a normal Anthropic stream', async () => {
    const { sub, glm, leeway } = await subscriptionThenGlm();
    const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'main',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const events: string[] = [];
    stream.on('streamEvent', (event) => events.push(event.type));
    const final = await stream.finalMessage();

    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: GLM_ANSWER })]);
    expect(final.stop_reason).toBe('end_turn');
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta');
    expect(events.at(-1)).toBe('message_stop');
    const headers = stream.response?.headers;
    expect(headers?.get('x-leeway-connection')).toBe('glm');
    expect(headers?.get('x-leeway-translated')).toBe('anthropic->openai');
    expect(headers?.get('x-leeway-failover')).toBe('sub=429');

    // One wall 429 from the subscription, no slow-lane retry, no reset claim.
    expect(sub.messages()).toHaveLength(1);
    expect(sub.messages()[0]?.response?.status).toBe(429);
    expect(sub.messages()[0]?.headers['anthropic-usage-limit']).toBeUndefined();
    expect(sub.claimCalls()).toHaveLength(0);
    const [sent] = glm.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.json).toMatchObject({ model: 'glm-4.6', stream: true });
    expect(sent?.headers.authorization).toBe('Bearer sk-openai-secret-glm-0000');

    const [row] = await servedRows(leeway);
    expect(row).toMatchObject({
      model: 'main',
      connection: 'glm',
      status: 200,
      translated: 'anthropic->openai',
      failover: [expect.objectContaining({ connection: 'sub', status: 429 })],
    });
  });

  it.skipIf(!binary)(
    'issue 12 §5: Claude Code (`claude -p --model main`) prints GLM’s answer while the subscription is at its wall',
    async () => {
      const { sub, glm, leeway } = await subscriptionThenGlm();
      const run = await runClaude(binary ?? '', ['-p', 'say hi', '--model', 'main'], {
        baseUrl: leeway.url,
        apiKey: '',
        env: { ANTHROPIC_AUTH_TOKEN: leeway.key, CLAUDE_CODE_MAX_RETRIES: '0' },
        timeoutMs: 20_000,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(GLM_ANSWER);
      expect(sub.messages().length).toBeGreaterThanOrEqual(1);
      expect(sub.messages().every((r) => r.response?.status === 429)).toBe(true);
      expect(glm.requests.filter((r) => r.path === '/v1/chat/completions').length).toBeGreaterThanOrEqual(1);
      const served = await servedRows(leeway);
      expect(served.at(-1)).toMatchObject({ connection: 'glm', translated: 'anthropic->openai' });
    },
    30_000,
  );
});
