/** Copyable client setup, built from the real proxy URL and a chosen key (PROD-10, PROD-11, PROD-13). */
export interface SetupSnippet {
  id: string;
  title: string;
  note: string;
  code: string;
}

/** Shown in place of a key the page cannot know: keys are stored hashed and shown once. */
export const KEY_PLACEHOLDER = '<your-leeway-key>';

/** The variable the codex provider reads its key from (`env_key`); `leeway claude` reads it too. */
export const CODEX_KEY_VARIABLE = 'LEEWAY_KEY';

/**
 * Every snippet gives Claude Code its key as ANTHROPIC_AUTH_TOKEN: with ANTHROPIC_API_KEY it asks to
 * approve the key and clashes with a claude.ai login (issue 13 §6). aider gets its key as a flag, so
 * nothing exported for it leaks into a shell Claude Code later starts from.
 */
export function buildSetupSnippets(proxyUrl: string, key: string | null): SetupSnippet[] {
  const base = proxyUrl.replace(/\/+$/, '');
  const apiKey = key ?? KEY_PLACEHOLDER;
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      note:
        'Run in the shell you start claude from (or use "Configure Claude Code" above). No /v1 on the base URL: ' +
        'Claude Code adds it. The last line lets /model list the models Leeway serves.',
      code: [
        'unset ANTHROPIC_API_KEY',
        `export ANTHROPIC_BASE_URL=${base}`,
        `export ANTHROPIC_AUTH_TOKEN=${apiKey}`,
        'export CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1',
      ].join('\n'),
    },
    {
      id: 'aider-openai',
      title: 'aider (OpenAI-compatible API)',
      note: 'Chat completions go through /v1/chat/completions; name a model with --model openai/<id>.',
      code: `aider --openai-api-base ${base}/v1 --openai-api-key ${apiKey}`,
    },
    {
      id: 'aider-anthropic',
      title: 'aider (Anthropic API)',
      note: 'Any anthropic/ model works, e.g. anthropic/claude-sonnet-4-5; the key stays on the command line.',
      code: `aider --model anthropic/claude-sonnet-4-5 --anthropic-api-key ${apiKey} --set-env ANTHROPIC_API_BASE=${base}`,
    },
    {
      id: 'codex-config',
      title: 'codex (~/.codex/config.toml)',
      note: 'Add to ~/.codex/config.toml: codex speaks the Responses API, which Leeway serves on any connection.',
      code: [
        'model_provider = "leeway"',
        '',
        '[model_providers.leeway]',
        'name = "Leeway"',
        `base_url = "${base}/v1"`,
        `env_key = "${CODEX_KEY_VARIABLE}"`,
        'wire_api = "responses"',
      ].join('\n'),
    },
    {
      id: 'codex-key',
      title: 'codex (its key)',
      note: 'Run in the shell you start codex from; the config file names the variable, never the key.',
      code: `export ${CODEX_KEY_VARIABLE}=${apiKey}`,
    },
  ];
}
