import { homedir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../../../src-shared/contract/errors';
import { openAiBaseOf, type AgentSetup, type Env } from '../agent-setup';
import { isObject } from '../json-config';
import { editTomlChecked, parseToml, replaceTable, setRootKey } from '../toml-config';

/** The variable codex reads the key from (`env_key`); the file names it, never the key. */
export const CODEX_KEY_VARIABLE = 'LEEWAY_KEY';
const LEEWAY_HEADER = /^\s*\[\s*model_providers\s*\.\s*(?:leeway|"leeway"|'leeway')\s*\]\s*(?:#.*)?$/;

/** codex's own rule: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`. */
export function codexConfigPath(env: Env): string {
  const home = env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.codex');
  return join(home, 'config.toml');
}

/** The provider table as codex 0.169 reads it: the Responses API under `<proxy>/v1`. */
export function codexProvider(proxyUrl: string): Record<string, string> {
  return { name: 'Leeway', base_url: openAiBaseOf(proxyUrl), env_key: CODEX_KEY_VARIABLE, wire_api: 'responses' };
}

const providerLines = (proxyUrl: string): string[] => [
  '[model_providers.leeway]',
  ...Object.entries(codexProvider(proxyUrl)).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
];

export const codexSetup: AgentSetup = {
  id: 'codex',
  expectedUrl: openAiBaseOf,
  note: `codex reads the key from ${CODEX_KEY_VARIABLE}: run export ${CODEX_KEY_VARIABLE}=<your key> in the shell you start codex from (the file names the variable, never the key).`,
  files: (env) => {
    const path = codexConfigPath(env);
    return [
      {
        path,
        plan: (current, values) =>
          editTomlChecked(
            path,
            current,
            (lines) =>
              replaceTable(
                setRootKey(lines, 'model_provider', '"leeway"'),
                LEEWAY_HEADER,
                providerLines(values.proxyUrl),
              ),
            (parsed) => {
              const providers = parsed.model_providers ?? {};
              if (!isObject(providers)) return null;
              const leeway = codexProvider(values.proxyUrl);
              return { ...parsed, model_provider: 'leeway', model_providers: { ...providers, leeway } };
            },
          ),
        pointsAt: (current) => {
          const parsed = parseToml(path, current);
          if (!parsed.ok) return parsed;
          const provider = isObject(parsed.value.model_providers) ? parsed.value.model_providers.leeway : undefined;
          const url = parsed.value.model_provider === 'leeway' && isObject(provider) ? provider.base_url : undefined;
          return ok(typeof url === 'string' ? url : null);
        },
      },
    ];
  },
  snippet: ({ proxyUrl, key }, env) => ({
    target: codexConfigPath(env),
    text: [
      'model_provider = "leeway"',
      '',
      ...providerLines(proxyUrl),
      '',
      `# and in the shell you start codex from: export ${CODEX_KEY_VARIABLE}=${key}`,
    ].join('\n'),
  }),
};
