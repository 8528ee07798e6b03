import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { expect } from 'vitest';
import type { AgentId } from '../../src-shared/domain/agent-setup';
import { readDotenv } from './dotenv-config';

/** A user's file that already holds other settings, relative to HOME, with what must survive Apply. */
export interface AgentFixture {
  /** Existing files (HOME-relative path → text), comments and other providers included. */
  existing: Record<string, string>;
  /** A file the agent's parser cannot read, and its HOME-relative path. */
  broken: { path: string; text: string };
  /** Checks the files after Apply on top of `existing`: every other setting still there, Leeway's entries added. */
  keptAndAdded(read: (path: string) => string, proxyUrl: string, key: string): void;
}

type Json = Record<string, unknown>;
const json = (text: string): Json => JSON.parse(text) as Json;

const CODEX = `# my codex config
model = "gpt-5"
approval_policy = "on-request"

[model_providers.other]
name = "Other"
base_url = "https://other.example/v1"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "1"]
`;

export const AGENT_FIXTURES: Record<AgentId, AgentFixture> = {
  codex: {
    existing: { '.codex/config.toml': CODEX },
    broken: { path: '.codex/config.toml', text: 'model = "gpt-5\n[model_providers\n' },
    keptAndAdded: (read, proxyUrl) => {
      const text = read('.codex/config.toml');
      expect(text).toContain('# my codex config');
      expect(parseToml(text)).toEqual({
        model: 'gpt-5',
        approval_policy: 'on-request',
        model_provider: 'leeway',
        model_providers: {
          other: { name: 'Other', base_url: 'https://other.example/v1' },
          leeway: { name: 'Leeway', base_url: `${proxyUrl}/v1`, env_key: 'LEEWAY_KEY', wire_api: 'responses' },
        },
        mcp_servers: { docs: { command: 'docs-mcp', args: ['--port', '1'] } },
      });
    },
  },
  opencode: {
    existing: {
      '.config/opencode/opencode.json': JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        theme: 'tokyonight',
        provider: { openrouter: { options: { apiKey: 'sk-or-0123456789' } } },
      }),
    },
    broken: { path: '.config/opencode/opencode.json', text: '{ "theme": "tokyonight", }' },
    keptAndAdded: (read, proxyUrl, key) => {
      const config = json(read('.config/opencode/opencode.json'));
      expect(config).toMatchObject({
        theme: 'tokyonight',
        provider: {
          openrouter: { options: { apiKey: 'sk-or-0123456789' } },
          leeway: { npm: '@ai-sdk/openai-compatible', options: { baseURL: `${proxyUrl}/v1`, apiKey: key } },
          'leeway-anthropic': { npm: '@ai-sdk/anthropic', options: { baseURL: `${proxyUrl}/v1`, apiKey: key } },
        },
      });
    },
  },
  'qwen-code': {
    existing: {
      '.qwen/settings.json': JSON.stringify({ ui: { theme: 'Dracula' }, security: { folderTrust: { enabled: true } } }),
      '.qwen/.env': '# mine\nDEBUG=1\nOPENAI_API_KEY=sk-old-0123456789\n',
    },
    broken: { path: '.qwen/settings.json', text: '{ ui: ' },
    keptAndAdded: (read, proxyUrl, key) => {
      expect(json(read('.qwen/settings.json'))).toEqual({
        ui: { theme: 'Dracula' },
        security: { folderTrust: { enabled: true }, auth: { selectedType: 'openai' } },
      });
      const env = read('.qwen/.env');
      expect(env).toContain('# mine\nDEBUG=1\n');
      expect(readDotenv(env)).toEqual({ DEBUG: '1', OPENAI_API_KEY: key, OPENAI_BASE_URL: `${proxyUrl}/v1` });
    },
  },
  'gemini-cli': {
    existing: {
      '.gemini/settings.json': JSON.stringify({
        general: { vimMode: true },
        security: { auth: { selectedType: 'oauth-personal' } },
      }),
      '.gemini/.env': 'GOOGLE_CLOUD_PROJECT=mine\n',
    },
    broken: { path: '.gemini/settings.json', text: '[1, 2]' },
    keptAndAdded: (read, proxyUrl, key) => {
      expect(json(read('.gemini/settings.json'))).toEqual({
        general: { vimMode: true },
        security: { auth: { selectedType: 'gemini-api-key' } },
      });
      expect(readDotenv(read('.gemini/.env'))).toEqual({
        GOOGLE_CLOUD_PROJECT: 'mine',
        GOOGLE_GEMINI_BASE_URL: proxyUrl,
        GEMINI_API_KEY: key,
      });
    },
  },
  aider: {
    existing: { '.aider.conf.yml': '# aider settings\nmodel: openai/glm-4.6  # mine\ndark-mode: true\n' },
    broken: { path: '.aider.conf.yml', text: 'model: [unclosed\n' },
    keptAndAdded: (read, proxyUrl, key) => {
      const text = read('.aider.conf.yml');
      expect(text).toContain('# aider settings');
      expect(text).toContain('# mine');
      expect(parseYaml(text)).toEqual({
        model: 'openai/glm-4.6',
        'dark-mode': true,
        'openai-api-base': `${proxyUrl}/v1`,
        'openai-api-key': key,
      });
    },
  },
};
