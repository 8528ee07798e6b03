/**
 * Tray copies of the client setup (PROD-13), built from the real proxy URL. The tray cannot know a
 * plain local key (they are stored hashed and shown once), so it puts a placeholder unless given one.
 * Kept in step with the window's snippets in src-renderer/features/setup.
 */
export const KEY_PLACEHOLDER = '<your-leeway-key>';

const baseOf = (proxyUrl: string): string => proxyUrl.replace(/\/+$/, '');

/** Claude Code reads both variables from the shell it starts in (PROD-10). */
export function claudeCodeSetup(proxyUrl: string, key: string | null = null): string {
  return `export ANTHROPIC_BASE_URL=${baseOf(proxyUrl)}\nexport ANTHROPIC_AUTH_TOKEN=${key ?? KEY_PLACEHOLDER}`;
}

/** aider through the OpenAI-compatible chat completions route under /v1 (PROD-11). */
export function aiderSetup(proxyUrl: string, key: string | null = null): string {
  return `aider --openai-api-base ${baseOf(proxyUrl)}/v1 --openai-api-key ${key ?? KEY_PLACEHOLDER}`;
}
