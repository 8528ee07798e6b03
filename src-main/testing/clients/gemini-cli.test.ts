import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini, geminiConnection, type FakeGemini } from '../fake-gemini';
import { anthropicConnection } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';
import { geminiCliMissingReason, runGeminiCli } from './gemini-cli-binary';

/*
 * Issue 23 §1: the real Gemini CLI (@google/gemini-cli, non-interactive `-p`) through Leeway, with
 * API-key auth pointed at Leeway by GOOGLE_GEMINI_BASE_URL and the local key as GEMINI_API_KEY:
 * served natively by a gemini connection and translated onto an Anthropic connection.
 */
const harness = useClientHarness();
let fakes: FakeGemini[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});
const missing = geminiCliMissingReason();

describe.skipIf(missing !== null)('Gemini CLI through Leeway (issue 23 §1)', () => {
  it('ISSUE-23 gemini -p is served by a gemini connection (native)', { timeout: 90_000 }, async () => {
    const fake = await startFakeGemini();
    fakes.push(fake);
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    fake.script.push({ kind: 'text', text: 'PONG from the fake Gemini' });
    const run = await runGeminiCli('Reply with PONG', {
      baseUrl: leeway.url,
      apiKey: leeway.key,
      model: 'gemini-2.5-flash',
    });
    expect(run.stdout).toContain('PONG from the fake Gemini');
    expect(run.code).toBe(0);
  });

  it('ISSUE-23 gemini -p is served by an Anthropic connection (translated)', { timeout: 90_000 }, async () => {
    const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
    const leeway = await harness.leeway({
      connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6'] })],
    });
    upstream.enqueue({ kind: 'ok', text: 'PONG from Claude' });
    const run = await runGeminiCli('Reply with PONG', {
      baseUrl: leeway.url,
      apiKey: leeway.key,
      model: 'claude-sonnet-4-6',
    });
    expect(run.stdout).toContain('PONG from Claude');
    expect(run.code).toBe(0);
    const rows = await activity(leeway);
    expect(rows.some((r) => r.apiFormat === 'gemini' && r.status === 200)).toBe(true);
  });

  it(
    'ISSUE-23 a tool call round trip: Claude asks for list_directory, the CLI runs it and sends the result back (translated)',
    { timeout: 120_000 },
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
      const leeway = await harness.leeway({
        connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6'] })],
      });
      upstream.enqueue(
        { kind: 'tool-call', calls: [{ name: 'list_directory', input: { dir_path: '.' }, id: 'toolu_ls_1' }] },
        { kind: 'ok', text: 'The folder holds marker-file.txt' },
      );
      const run = await runGeminiCli('List this folder', {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        model: 'claude-sonnet-4-6',
        args: ['--yolo'],
        files: { 'marker-file.txt': 'x' },
      });
      expect(run.stdout).toContain('The folder holds marker-file.txt');
      const followUp = JSON.stringify(upstream.requests.at(-1)?.json ?? {});
      // The CLI's functionResponse reached Claude as a tool_result for the same call, with the listing.
      expect(followUp).toContain('"tool_result"');
      expect(followUp).toContain('toolu_ls_1');
      expect(followUp).toContain('marker-file.txt');
      expect(run.code).toBe(0);
    },
  );
});
