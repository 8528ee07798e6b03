import { homedir } from 'node:os';
import { join } from 'node:path';
import { openAiBaseOf, type AgentSetup, type Env } from '../agent-setup';
import { setYamlKeys, yamlString } from '../yaml-config';

/** aider reads `.aider.conf.yml` from the home directory (then the git root and the current directory, which win). */
export const aiderConfigPath = (env: Env): string => join(env.HOME?.trim() || homedir(), '.aider.conf.yml');

/** aider through Leeway's OpenAI-compatible chat completions. */
const entries = (proxyUrl: string, key: string): Record<string, string> => ({
  'openai-api-base': openAiBaseOf(proxyUrl),
  'openai-api-key': key,
});

export const aiderSetup: AgentSetup = {
  id: 'aider',
  expectedUrl: openAiBaseOf,
  note: 'Name a Leeway model as "aider --model openai/<model>" (or "model: openai/<model>" in the file); a .aider.conf.yml in the repository wins over this one.',
  files: (env) => {
    const path = aiderConfigPath(env);
    return [
      {
        path,
        plan: (current, values) => setYamlKeys(path, current, entries(values.proxyUrl, values.key)),
        pointsAt: (current) => yamlString(path, current, 'openai-api-base'),
      },
    ];
  },
  snippet: ({ proxyUrl, key }, env) => ({
    target: aiderConfigPath(env),
    text: Object.entries(entries(proxyUrl, key))
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  }),
};
