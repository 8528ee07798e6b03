import { describe, expect, it } from 'vitest';
import type { FakeUpstream, RecordedRequest } from '../fake-upstream';
import { anthropicConnection, openaiConnection, TEST_LOCAL_KEY, type RunningLeeway } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';
import { codexMissingReason, findCodexBinary, runCodex } from './codex-binary';

/*
 * Issue 12 §2: the real codex CLI (`codex exec`, Responses API over `wire_api="responses"`)
 * through Leeway: translated to Chat Completions and to Anthropic Messages, and natively passed
 * through to an `openai` connection. Observed with codex 0.169.0: one streamed `POST /v1/responses`
 * per model turn with a `session-id` header; its tool `exec_command` runs `{"cmd": …}` in the
 * sandbox and the next request carries the `function_call_output`; stdout is the final message only.
 */
const harness = useClientHarness();
const binary = findCodexBinary();
const missing = codexMissingReason();
const RUN_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 30_000;
const ECHO = { name: 'exec_command', input: { cmd: 'echo hi' } };

if (missing) console.warn(`Skipping codex CLI tests: ${missing}`);

type Json = Record<string, unknown>;
const pathOf = (r: RecordedRequest) => new URL(r.path, 'http://x').pathname;
const posts = (u: FakeUpstream, path: string) => u.requests.filter((r) => r.method === 'POST' && pathOf(r) === path);
const codex = (leeway: RunningLeeway, model: string, prompt: string) =>
  runCodex(binary ?? '', prompt, { baseUrl: leeway.url, apiKey: leeway.key, model, timeoutMs: RUN_TIMEOUT_MS });

function expectConnectionCredentialsOnly(upstream: FakeUpstream): void {
  for (const r of upstream.requests) {
    expect(JSON.stringify(r.headers) + r.body).not.toContain(TEST_LOCAL_KEY);
    // AFF-5: the session header codex sends is Leeway's, never forwarded.
    expect(r.headers['session-id']).toBeUndefined();
  }
}

async function rows(leeway: RunningLeeway, count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const list = (await activity(leeway)).filter((e) => e.endpoint === 'responses');
    if (list.length >= count || Date.now() > deadline) return list;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('codex CLI through Leeway (issue 12 §2)', () => {
  it.skipIf(!binary)(
    'issue 12 §2: `codex exec` on a chat-completions connection prints the upstream answer',
    async () => {
      const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
      upstream.setDefault({ kind: 'ok', text: 'hi from glm via chat completions' });
      const leeway = await harness.leeway({ connections: [openaiConnection('glm', upstream.url)] });

      const run = await codex(leeway, 'glm-4.6', 'say hi');

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hi from glm via chat completions');
      const chats = posts(upstream, '/v1/chat/completions');
      expect(chats.length).toBeGreaterThanOrEqual(1);
      expect(posts(upstream, '/v1/responses')).toHaveLength(0);
      const body = chats[0]?.json as { model: string; stream: boolean; messages: Json[]; tools?: Json[] };
      expect(body).toMatchObject({ model: 'glm-4.6', stream: true });
      // codex's developer instructions and the user prompt both arrive as chat messages.
      expect(['system', 'developer']).toContain(body.messages[0]?.role);
      expect(JSON.stringify(body.messages)).toContain('say hi');
      expect(body.tools?.some((t) => JSON.stringify(t).includes('exec_command'))).toBe(true);
      expect(chats[0]?.headers.authorization).toBe('Bearer sk-openai-secret-glm-0000');
      expectConnectionCredentialsOnly(upstream);
      const [row] = await rows(leeway, 1);
      expect(row).toMatchObject({ connection: 'glm', status: 200, stream: true, translated: 'responses->openai' });
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'AFF-1: a codex tool turn on a round-robin combo of chat-completions connections: `echo hi` runs, its output goes back, and the session-id pins both requests to one connection',
    async () => {
      const a = await harness.upstream({ format: 'openai', name: 'a' });
      const b = await harness.upstream({ format: 'openai', name: 'b' });
      for (const u of [a, b]) {
        u.enqueue({ kind: 'tool-call', calls: [ECHO], fragments: 3 });
        u.setDefault({ kind: 'ok', text: `the command said hi (${u.name})` });
      }
      const leeway = await harness.leeway({
        connections: [openaiConnection('acct-a', a.url), openaiConnection('acct-b', b.url)],
        combos: [
          {
            name: 'coder',
            strategy: 'round-robin',
            targets: [
              { connection: 'acct-a', model: 'glm-4.6' },
              { connection: 'acct-b', model: 'glm-4.6' },
            ],
          },
        ],
      });

      const run = await codex(leeway, 'coder', 'run echo hi');

      expect(run.code, run.stderr).toBe(0);
      const served = posts(a, '/v1/chat/completions').length > 0 ? a : b;
      const other = served === a ? b : a;
      expect(run.stdout).toContain(`the command said hi (${served.name})`);
      // AFF-2: both turns of the session went to one connection, although the combo rotates.
      const turns = posts(served, '/v1/chat/completions');
      expect(turns).toHaveLength(2);
      expect(posts(other, '/v1/chat/completions')).toHaveLength(0);
      const messages = (turns[1]?.json as { messages: Json[] }).messages;
      const assistant = messages.find((m) => Array.isArray(m.tool_calls));
      const callId = `call_${served.name}_1_0`;
      expect(assistant?.tool_calls).toEqual([
        expect.objectContaining({ id: callId, function: expect.objectContaining({ name: 'exec_command' }) }),
      ]);
      const output = messages.find((m) => m.role === 'tool');
      expect(output).toMatchObject({ tool_call_id: callId });
      expect(JSON.stringify(output?.content)).toContain('hi');
      expectConnectionCredentialsOnly(served);
      // The pin marks of the two requests, newest first: made on the first, kept on the second.
      const marks = (await rows(leeway, 2)).slice(0, 2).map((r) => [r.connection, r.sessionPin]);
      expect(marks).toEqual([
        [`acct-${served.name}`, 'kept'],
        [`acct-${served.name}`, 'new'],
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'issue 12 §2: `codex exec` on an Anthropic connection: a plain answer, and a tool turn whose output returns as a tool_result',
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
      const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });
      upstream.enqueue({ kind: 'ok', text: 'plain answer from claude' });

      const plain = await codex(leeway, 'claude-sonnet-4-6', 'say hi');
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toContain('plain answer from claude');
      const first = posts(upstream, '/v1/messages')[0];
      const body = first?.json as {
        model: string;
        stream: boolean;
        system?: unknown;
        messages: Json[];
        max_tokens: number;
      };
      expect(body).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
      expect(body.max_tokens).toBeGreaterThan(0);
      expect(JSON.stringify(body.system)).toContain('Codex');
      expect(JSON.stringify(body.messages)).toContain('say hi');
      expect(first?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');

      upstream.enqueue(
        { kind: 'tool-call', text: 'Running it.', calls: [ECHO], fragments: 3 },
        { kind: 'ok', text: 'claude saw the output' },
      );
      const tool = await codex(leeway, 'claude-sonnet-4-6', 'run echo hi');
      expect(tool.code, tool.stderr).toBe(0);
      expect(tool.stdout).toContain('claude saw the output');
      const [, turn1, turn2] = posts(upstream, '/v1/messages');
      expect(turn1).toBeDefined();
      const messages = (turn2?.json as { messages: Json[] }).messages;
      const callId = 'toolu_claude_2_0';
      const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Json[]) : []));
      expect(blocks).toContainEqual(
        expect.objectContaining({ type: 'tool_use', id: callId, name: 'exec_command', input: ECHO.input }),
      );
      const result = blocks.find((b) => b.type === 'tool_result');
      expect(result).toMatchObject({ tool_use_id: callId });
      expect(JSON.stringify(result)).toContain('hi');
      expectConnectionCredentialsOnly(upstream);
      const [latest] = await rows(leeway, 3);
      expect(latest).toMatchObject({ connection: 'a1', status: 200, translated: 'responses->anthropic' });
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    "issue 21 §10: `codex exec` with its default model (no -m) on an Anthropic connection: the tools of its additional_tools item reach Claude as tools, and a call to code mode's `exec` runs and returns",
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
      // codex 0.169's default model is gpt-6.1-sol: mapped to a Claude model as a user would.
      const leeway = await harness.leeway({
        connections: [
          anthropicConnection('a1', upstream.url, { modelAliases: { 'gpt-6.1-sol': 'claude-sonnet-4-6' } }),
        ],
      });
      upstream.enqueue(
        { kind: 'tool-call', calls: [{ name: 'functions__exec', input: { input: 'text("EXEC_RAN_OK")' } }] },
        { kind: 'ok', text: 'claude saw exec run' },
      );

      const run = await runCodex(binary ?? '', 'run it', {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        timeoutMs: RUN_TIMEOUT_MS,
      });

      // Before issue 21 §10 codex printed: input item type "additional_tools" cannot be sent to a chat model.
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('claude saw exec run');
      const [turn1, turn2] = posts(upstream, '/v1/messages');
      const first = turn1?.json as { model: string; tools: Json[]; messages: Json[] };
      expect(first.model).toBe('claude-sonnet-4-6');
      const names = first.tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['functions__exec', 'clock__sleep', 'collaboration__spawn_agent']));
      expect(first.tools.find((t) => t.name === 'functions__exec')?.input_schema).toMatchObject({
        required: ['input'],
      });
      expect(JSON.stringify(first.messages)).not.toContain('additional_tools');
      // codex ran the call (as its custom `exec` in namespace `functions`) and sent the output back.
      const blocks = (turn2?.json as { messages: Json[] }).messages.flatMap((m) =>
        Array.isArray(m.content) ? (m.content as Json[]) : [],
      );
      const use = blocks.find((b) => b.type === 'tool_use');
      expect(use).toMatchObject({ name: 'functions__exec', input: { input: 'text("EXEC_RAN_OK")' } });
      const result = blocks.find((b) => b.type === 'tool_result');
      expect(result).toMatchObject({ tool_use_id: use?.id });
      expect(JSON.stringify(result)).toContain('EXEC_RAN_OK');
      expectConnectionCredentialsOnly(upstream);
      const [latest] = await rows(leeway, 2);
      expect(latest).toMatchObject({ connection: 'a1', status: 200, translated: 'responses->anthropic' });
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'issue 12 §2: `codex exec` on an `openai` connection is passed through natively to /v1/responses',
    async () => {
      const upstream = await harness.upstream({ format: 'openai', name: 'oai' });
      upstream.setDefault({ kind: 'ok', text: 'native responses answer' });
      const leeway = await harness.leeway({
        connections: [
          { name: 'oai', kind: 'openai', baseUrl: `${upstream.url}/v1`, apiKey: 'sk-openai-secret-oai-0000' },
        ],
      });

      const run = await codex(leeway, 'gpt-4o', 'say hi');

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('native responses answer');
      const sent = posts(upstream, '/v1/responses');
      expect(sent.length).toBeGreaterThanOrEqual(1);
      expect(posts(upstream, '/v1/chat/completions')).toHaveLength(0);
      const body = sent[0]?.json as { model: string; stream: boolean; input: Json[]; tools: Json[] };
      expect(body).toMatchObject({ model: 'gpt-4o', stream: true });
      // Untranslated: codex's own Responses items and tools arrive as it sent them.
      expect(body.input.some((i) => i.type === 'message' && i.role === 'developer')).toBe(true);
      expect(body.tools.some((t) => t.type === 'function' && t.name === 'exec_command')).toBe(true);
      expect(sent[0]?.headers.authorization).toBe('Bearer sk-openai-secret-oai-0000');
      expectConnectionCredentialsOnly(upstream);
      const [row] = await rows(leeway, 1);
      expect(row).toMatchObject({ connection: 'oai', status: 200 });
      expect(row?.translated ?? null).toBeNull();
    },
    TEST_TIMEOUT_MS,
  );

  it('AFF-1: a Responses request with `session-id` (as codex sends it) is pinned: the second answer names the pin', async () => {
    const a = await harness.upstream({ format: 'openai', name: 'a' });
    const b = await harness.upstream({ format: 'openai', name: 'b' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('acct-a', a.url), openaiConnection('acct-b', b.url)],
      combos: [
        {
          name: 'coder',
          strategy: 'round-robin',
          targets: [
            { connection: 'acct-a', model: 'gpt-4o' },
            { connection: 'acct-b', model: 'gpt-4o' },
          ],
        },
      ],
    });
    const ask = () =>
      fetch(`${leeway.url}/v1/responses`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${leeway.key}`,
          'session-id': 'codex-s1',
        },
        body: JSON.stringify({ model: 'coder', input: 'hi', stream: false }),
      });
    const first = await ask();
    expect(first.status).toBe(200);
    await first.text();
    const second = await ask();
    expect(second.status).toBe(200);
    await second.text();
    const pinned = first.headers.get('x-leeway-connection');
    expect(second.headers.get('x-leeway-connection')).toBe(pinned);
    expect(second.headers.get('x-leeway-session-pin')).toBe(pinned);
    expect([...a.requests, ...b.requests].every((r) => r.headers['session-id'] === undefined)).toBe(true);
  });
});
