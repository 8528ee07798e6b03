import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini, geminiConnection, type FakeGemini } from '../fake-gemini';
import { anthropicConnection } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 23 §1 "usage mapped": a Gemini client's request records its tokens on the activity row,
 * whether a gemini connection answers natively (usageMetadata read by the usage tap) or an
 * Anthropic connection answers translated (the upstream's own usage read before translation).
 */
const harness = useClientHarness();
let fakes: FakeGemini[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

function sdk(url: string, key: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
}

async function drain(client: GoogleGenAI, model: string): Promise<void> {
  const stream = await client.models.generateContentStream({ model, contents: 'Say hi' });
  for await (const chunk of stream) void chunk;
}

describe('Gemini usage on the activity row (issue 23 §1)', () => {
  it('ISSUE-23 a native Gemini answer records its usageMetadata tokens, whole and streamed', async () => {
    const fake = await startFakeGemini();
    fakes.push(fake);
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    const client = sdk(leeway.url, leeway.key);
    fake.script.push({ kind: 'text', text: 'whole' }, { kind: 'text', text: 'streamed' });
    await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    await drain(client, 'gemini-2.5-flash');
    const rows = await activity(leeway);
    expect(rows).toHaveLength(2);
    // fake-gemini reports promptTokenCount 7, candidatesTokenCount 3, no cache.
    for (const row of rows)
      expect(row).toMatchObject({ apiFormat: 'gemini', status: 200, inputTokens: 7, outputTokens: 3 });
  });

  it('ISSUE-23 a Gemini client served by an Anthropic connection records the upstream usage, whole and streamed', async () => {
    const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
    const leeway = await harness.leeway({
      connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6'] })],
    });
    upstream.enqueue(
      { kind: 'ok', text: 'from claude', usage: { input: 21, output: 4 } },
      { kind: 'ok', text: 'streamed from claude', usage: { input: 22, output: 5 } },
    );
    const client = sdk(leeway.url, leeway.key);
    await client.models.generateContent({ model: 'claude-sonnet-4-6', contents: 'hi' });
    await drain(client, 'claude-sonnet-4-6');
    const rows = await activity(leeway);
    expect(rows).toHaveLength(2);
    const tokens = rows.map((r) => [r.inputTokens, r.outputTokens]).sort();
    expect(tokens).toEqual([
      [21, 4],
      [22, 5],
    ]);
  });
});
