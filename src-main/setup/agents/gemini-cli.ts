import { homedir } from 'node:os';
import { join } from 'node:path';
import { originOf, type Env } from '../agent-setup';
import { settingsAndDotenvSetup } from './settings-and-dotenv';

export const geminiDir = (env: Env): string => join(env.HOME?.trim() || homedir(), '.gemini');

/**
 * Gemini CLI through Leeway's Gemini API: the API key sign-in (a Google login would bypass Leeway),
 * `GOOGLE_GEMINI_BASE_URL` = Leeway's origin (the SDK adds `/v1beta/…`), the local key as the API key.
 */
export const geminiCliSetup = settingsAndDotenvSetup({
  id: 'gemini-cli',
  dir: geminiDir,
  settings: { security: { auth: { selectedType: 'gemini-api-key' } } },
  variables: (proxyUrl, key) => ({ GOOGLE_GEMINI_BASE_URL: originOf(proxyUrl), GEMINI_API_KEY: key }),
  urlVariable: 'GOOGLE_GEMINI_BASE_URL',
  expectedUrl: originOf,
  note: 'Gemini CLI reads ~/.gemini/.env when the project has no .env of its own, and variables set in the shell win.',
});
