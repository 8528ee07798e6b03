import { join } from 'node:path';
import { ok } from '../../../src-shared/contract/errors';
import type { AgentId } from '../../../src-shared/domain/agent-setup';
import type { AgentSetup, Env } from '../agent-setup';
import { readDotenv, setDotenv } from '../dotenv-config';
import { parseJsonObject, planJson, renderJson, type Json } from '../json-config';

export interface SettingsAndDotenv {
  id: AgentId;
  /** The agent's folder (`~/.gemini`, `~/.qwen`): settings.json and .env live in it. */
  dir(env: Env): string;
  /** Merged into settings.json (the sign-in type). */
  settings: Json;
  /** Written to .env: the base URL variable first, then the key. */
  variables(proxyUrl: string, key: string): Record<string, string>;
  /** The variable that names the base URL (read back for the status). */
  urlVariable: string;
  expectedUrl(proxyUrl: string): string;
  note: string;
}

/** Gemini CLI and Qwen Code (its fork) alike: a sign-in type in settings.json, URL and key in the folder's .env. */
export function settingsAndDotenvSetup(spec: SettingsAndDotenv): AgentSetup {
  return {
    id: spec.id,
    expectedUrl: spec.expectedUrl,
    note: spec.note,
    files: (env) => {
      const settings = join(spec.dir(env), 'settings.json');
      const dotenv = join(spec.dir(env), '.env');
      return [
        {
          path: settings,
          plan: (current) => planJson(settings, current, spec.settings),
          // The URL lives in .env; a broken settings.json still makes the status say so.
          pointsAt: (current) => {
            const parsed = parseJsonObject(settings, current);
            return parsed.ok ? ok(null) : parsed;
          },
        },
        {
          path: dotenv,
          plan: (current, values) => ok(setDotenv(current, spec.variables(values.proxyUrl, values.key))),
          pointsAt: (current) => ok(readDotenv(current)[spec.urlVariable] ?? null),
        },
      ];
    },
    snippet: ({ proxyUrl, key }, env) => ({
      target: `${join(spec.dir(env), 'settings.json')} and ${join(spec.dir(env), '.env')}`,
      text: [
        renderJson(spec.settings).trimEnd(),
        '',
        ...Object.entries(spec.variables(proxyUrl, key)).map(([k, v]) => `${k}=${v}`),
      ].join('\n'),
    }),
  };
}
