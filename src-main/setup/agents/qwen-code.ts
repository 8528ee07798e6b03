import { homedir } from 'node:os';
import { join } from 'node:path';
import { openAiBaseOf, type Env } from '../agent-setup';
import { settingsAndDotenvSetup } from './settings-and-dotenv';

export const qwenDir = (env: Env): string => join(env.HOME?.trim() || homedir(), '.qwen');

/** Qwen Code through Leeway's chat completions: the OpenAI-compatible sign-in, base URL `<proxy>/v1`, the local key. */
export const qwenCodeSetup = settingsAndDotenvSetup({
  id: 'qwen-code',
  dir: qwenDir,
  settings: { security: { auth: { selectedType: 'openai' } } },
  variables: (proxyUrl, key) => ({ OPENAI_BASE_URL: openAiBaseOf(proxyUrl), OPENAI_API_KEY: key }),
  urlVariable: 'OPENAI_BASE_URL',
  expectedUrl: openAiBaseOf,
  note: 'Name a Leeway model with "qwen --model <model>" (or OPENAI_MODEL in ~/.qwen/.env); a project .env of its own, or the shell, wins over ~/.qwen/.env.',
});
