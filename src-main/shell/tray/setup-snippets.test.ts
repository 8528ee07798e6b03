import { describe, expect, it } from 'vitest';
import { aiderSetup, claudeCodeSetup, KEY_PLACEHOLDER } from './setup-snippets';

describe('tray setup snippets', () => {
  it('PROD-10 PROD-13: Claude Code gets ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN with the real port', () => {
    expect(claudeCodeSetup('http://127.0.0.1:8123/', 'lw-chosen-key-123')).toBe(
      'export ANTHROPIC_BASE_URL=http://127.0.0.1:8123\nexport ANTHROPIC_AUTH_TOKEN=lw-chosen-key-123',
    );
  });

  it('PROD-11 PROD-13: aider gets the OpenAI-compatible base under /v1', () => {
    expect(aiderSetup('http://127.0.0.1:8123', 'lw-chosen-key-123')).toBe(
      'aider --openai-api-base http://127.0.0.1:8123/v1 --openai-api-key lw-chosen-key-123',
    );
  });

  it('PROD-13: without a chosen key both use the placeholder (plain keys are shown only once)', () => {
    expect(claudeCodeSetup('http://127.0.0.1:7431')).toContain(`ANTHROPIC_AUTH_TOKEN=${KEY_PLACEHOLDER}`);
    expect(aiderSetup('http://127.0.0.1:7431')).toContain(`--openai-api-key ${KEY_PLACEHOLDER}`);
  });
});
