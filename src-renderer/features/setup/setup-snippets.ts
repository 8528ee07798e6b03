/** Copyable client setup, built from the real proxy URL and a chosen key (PROD-10, PROD-11, PROD-13). */
export interface SetupSnippet {
  id: string;
  title: string;
  note: string;
  code: string;
}

/** Shown in place of a key the page cannot know: keys are stored hashed and shown once. */
export const KEY_PLACEHOLDER = '<your-headroom-key>';

export function buildSetupSnippets(proxyUrl: string, key: string | null): SetupSnippet[] {
  const base = proxyUrl.replace(/\/+$/, '');
  const apiKey = key ?? KEY_PLACEHOLDER;
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      note: 'Run in the shell you start claude from.',
      code: `export ANTHROPIC_BASE_URL=${base}\nexport ANTHROPIC_AUTH_TOKEN=${apiKey}`,
    },
    {
      id: 'aider-openai',
      title: 'aider (OpenAI-compatible API)',
      note: 'Chat completions go through /v1/chat/completions.',
      code: `aider --openai-api-base ${base}/v1 --openai-api-key ${apiKey}`,
    },
    {
      id: 'aider-anthropic',
      title: 'aider (Anthropic API)',
      note: 'Then start aider with an anthropic/ model, e.g. --model anthropic/claude-sonnet-4-5.',
      code: `export ANTHROPIC_API_BASE=${base}\nexport ANTHROPIC_API_KEY=${apiKey}`,
    },
  ];
}
