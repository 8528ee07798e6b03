import { describe, expect, it } from 'vitest';
import { buildSetupSnippets, KEY_PLACEHOLDER } from './setup-snippets';

describe('setup snippets', () => {
  it('PROD-10 PROD-13 gives Claude Code the base URL and the chosen key', () => {
    const [claude] = buildSetupSnippets('http://127.0.0.1:7431/', 'hr-abc123');
    expect(claude?.code).toBe('export ANTHROPIC_BASE_URL=http://127.0.0.1:7431\nexport ANTHROPIC_AUTH_TOKEN=hr-abc123');
  });

  it('PROD-11 PROD-13 gives aider both the OpenAI /v1 base and the ANTHROPIC_API_BASE variant', () => {
    const snippets = buildSetupSnippets('http://127.0.0.1:9000', 'hr-k');
    expect(snippets.find((s) => s.id === 'aider-openai')?.code).toBe(
      'aider --openai-api-base http://127.0.0.1:9000/v1 --openai-api-key hr-k',
    );
    expect(snippets.find((s) => s.id === 'aider-anthropic')?.code).toContain(
      'export ANTHROPIC_API_BASE=http://127.0.0.1:9000\n',
    );
  });

  it('PROD-13 uses a visible placeholder when no key was created in this session', () => {
    for (const snippet of buildSetupSnippets('http://127.0.0.1:7431', null))
      expect(snippet.code).toContain(KEY_PLACEHOLDER);
  });
});
