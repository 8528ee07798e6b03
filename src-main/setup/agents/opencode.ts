import { homedir } from 'node:os';
import { join } from 'node:path';
import { openAiBaseOf, type AgentSetup, type Env, type SetupValues } from '../agent-setup';
import { jsonString, planJson, renderJson, type Json } from '../json-config';

/** opencode's global config: `$XDG_CONFIG_HOME/opencode/opencode.json`, else `~/.config/opencode/opencode.json`. */
export function opencodeConfigPath(env: Env): string {
  const config = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(config, 'opencode', 'opencode.json');
}

/** opencode lists a custom provider's models from its config; Leeway's combos and connection models. */
const modelsOf = (models: readonly string[]): Json =>
  Object.fromEntries([...new Set(models)].sort().map((id) => [id, { name: id }]));

/**
 * Two providers through Leeway: `leeway` (OpenAI-compatible chat completions) for any model, and
 * `leeway-anthropic` (the Anthropic Messages API, thinking and prompt caching intact) for Claude models.
 */
export function opencodeProviders(values: SetupValues): Json {
  const options = { baseURL: openAiBaseOf(values.proxyUrl), apiKey: values.key };
  const claude = values.models.filter((m) => m.startsWith('claude'));
  return {
    leeway: { npm: '@ai-sdk/openai-compatible', name: 'Leeway', options, models: modelsOf(values.models) },
    'leeway-anthropic': { npm: '@ai-sdk/anthropic', name: 'Leeway (Anthropic)', options, models: modelsOf(claude) },
  };
}

export const opencodeSetup: AgentSetup = {
  id: 'opencode',
  expectedUrl: openAiBaseOf,
  note: 'Pick a Leeway model in opencode with /models (providers "Leeway" and "Leeway (Anthropic)"); run Apply again after adding combos or models.',
  files: (env) => {
    const path = opencodeConfigPath(env);
    return [
      {
        path,
        plan: (current, values) =>
          planJson(path, current, {
            ...(current === null ? { $schema: 'https://opencode.ai/config.json' } : {}),
            provider: opencodeProviders(values),
          }),
        pointsAt: (current) => jsonString(path, current, ['provider', 'leeway', 'options', 'baseURL']),
      },
    ];
  },
  snippet: ({ proxyUrl, key }, env) => ({
    target: opencodeConfigPath(env),
    text: renderJson({ provider: opencodeProviders({ proxyUrl, key, models: ['<model>'] }) }).trimEnd(),
  }),
};
