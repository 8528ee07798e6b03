import { GoogleGenAI } from '@google/genai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentId } from '../../../src-shared/domain/agent-setup';
import { createAgentSetupService } from '../../setup/agent-setup-service';
import { readDotenv } from '../../setup/dotenv-config';
import { openaiConnection, type RunningLeeway } from '../start-leeway';
import { useClientHarness } from './client-harness';

/*
 * Issue 23 §2: the .env Apply writes for Gemini CLI and Qwen Code, read by the SDK each of them
 * sends with (Gemini CLI: @google/genai, which takes GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY from
 * the environment; Qwen Code: openai, which takes OPENAI_BASE_URL and OPENAI_API_KEY). The clients
 * are built with no options at all: only the written variables point them at Leeway.
 */
const harness = useClientHarness();
const homes: string[] = [];
const NAMES = ['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  for (const name of NAMES) {
    const value = saved[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Applies `agent` on a fresh HOME and loads the .env it wrote into process.env (as the CLI does at start). */
function applyAndLoad(agent: AgentId, leeway: Pick<RunningLeeway, 'url' | 'key'>, dotenv: string): void {
  const home = mkdtempSync(join(tmpdir(), 'leeway-agent-env-'));
  homes.push(home);
  const service = createAgentSetupService({ env: () => ({ HOME: home }), now: Date.now, proxyUrl: () => leeway.url });
  const applied = service.apply(agent, { key: leeway.key, models: [] });
  if (!applied.ok) throw new Error(applied.error.message);
  for (const name of [
    'GOOGLE_API_KEY',
    'GEMINI_API_KEY',
    'GOOGLE_GEMINI_BASE_URL',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
  ])
    delete process.env[name];
  Object.assign(process.env, readDotenv(readFileSync(join(home, dotenv), 'utf8')));
}

async function leewayOverGlm(text: string): Promise<RunningLeeway> {
  const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
  upstream.setDefault({ kind: 'ok', text });
  return harness.leeway({ connections: [openaiConnection('glm', upstream.url)] });
}

describe('the .env files Apply writes, read by the agents’ own SDKs (issue 23 §2)', () => {
  // Leeway's own /v1beta door is issue 23 §1's; until it is on this branch a loopback server plays it,
  // which is enough to show where the written variables send the SDK and with which key.
  it('ISSUE-23: Gemini CLI’s ~/.gemini/.env sends @google/genai (no options) to Leeway’s origin with the local key', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'hi via gemini' }] } }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      applyAndLoad('gemini-cli', { url, key: 'lw-local-key-gemini-0123' }, '.gemini/.env');
      const response = await new GoogleGenAI({}).models.generateContent({ model: 'glm-4.6', contents: 'say hi' });
      expect(response.text).toBe('hi via gemini');
      expect(seen.map((r) => r.url)).toEqual(['/v1beta/models/glm-4.6:generateContent']);
      expect(seen[0]?.headers['x-goog-api-key']).toBe('lw-local-key-gemini-0123');
    } finally {
      server.close();
    }
  });

  it('ISSUE-23: Qwen Code’s ~/.qwen/.env sends the openai SDK (no options) through Leeway', async () => {
    const leeway = await leewayOverGlm('hi from glm via chat completions');
    applyAndLoad('qwen-code', leeway, '.qwen/.env');
    const completion = await new OpenAI().chat.completions.create({
      model: 'glm-4.6',
      messages: [{ role: 'user', content: 'say hi' }],
    });
    expect(completion.choices[0]?.message.content).toContain('hi from glm via chat completions');
  });
});
