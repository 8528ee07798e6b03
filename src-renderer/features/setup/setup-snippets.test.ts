import { describe, expect, it } from 'vitest';
import { buildSetupSnippets, KEY_PLACEHOLDER } from './setup-snippets';

const byId = (id: string, key: string | null = 'lw-k', url = 'http://127.0.0.1:9000') =>
  buildSetupSnippets(url, key).find((s) => s.id === id)?.code ?? '';

describe('setup snippets', () => {
  it('PROD-10 PROD-13 gives Claude Code the base URL (no /v1) and the key as ANTHROPIC_AUTH_TOKEN', () => {
    expect(byId('claude-code', 'lw-abc123', 'http://127.0.0.1:7431/')).toBe(
      [
        'unset ANTHROPIC_API_KEY',
        'export ANTHROPIC_BASE_URL=http://127.0.0.1:7431',
        'export ANTHROPIC_AUTH_TOKEN=lw-abc123',
        'export CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1',
      ].join('\n'),
    );
  });

  it('PROD-10: no snippet exports ANTHROPIC_API_KEY (Claude Code would ask to approve it)', () => {
    for (const s of buildSetupSnippets('http://127.0.0.1:7431', 'lw-k'))
      expect(s.code).not.toMatch(/export ANTHROPIC_API_KEY/);
  });

  it('PROD-11 PROD-13 gives aider the OpenAI /v1 base and the Anthropic variant with its key as flags', () => {
    expect(byId('aider-openai')).toBe('aider --openai-api-base http://127.0.0.1:9000/v1 --openai-api-key lw-k');
    expect(byId('aider-anthropic')).toBe(
      'aider --model anthropic/claude-sonnet-4-5 --anthropic-api-key lw-k --set-env ANTHROPIC_API_BASE=http://127.0.0.1:9000',
    );
  });

  it('PROD-13 gives codex a Responses-API model provider and the key in the variable it names', () => {
    const config = byId('codex-config');
    expect(config).toContain('model_provider = "leeway"');
    expect(config).toContain('[model_providers.leeway]');
    expect(config).toContain('base_url = "http://127.0.0.1:9000/v1"');
    expect(config).toContain('env_key = "LEEWAY_KEY"');
    expect(config).toContain('wire_api = "responses"');
    expect(config).not.toContain('lw-k');
    expect(byId('codex-key')).toBe('export LEEWAY_KEY=lw-k');
  });

  it('PROD-13 uses a visible placeholder when no key was created in this session', () => {
    for (const snippet of buildSetupSnippets('http://127.0.0.1:7431', null).filter((s) => s.id !== 'codex-config'))
      expect(snippet.code).toContain(KEY_PLACEHOLDER);
  });
});
