/**
 * "Configure Claude Code" (issue 13 §6): the `env` block of Claude Code's `settings.json` pointed at
 * Leeway, every other key kept; a backup before each write (`settings.json.leeway-backup-<ms>`,
 * or `….absent` when there was no file), a preview of the change, and undo from the newest backup.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type {
  ClaudeCodeSettingsChange,
  ClaudeCodeSetupStatus,
  ClaudeCodeUndoResult,
} from '../../../src-shared/contract/methods';
import { diffLines } from './setup-diff';

export type Env = Readonly<Record<string, string | undefined>>;

const BACKUP_INFIX = '.leeway-backup-';
const ABSENT_SUFFIX = '.absent';
/** Set by "Configure": where to send requests, the local key, and /model listing Leeway's models. */
const SET_KEYS = ['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY'] as const;
/** Removed: with it Claude Code asks to approve the key, and it clashes with a claude.ai login. */
const REMOVED_KEYS = ['ANTHROPIC_API_KEY'] as const;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** Claude Code's own rule: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json` (HOME respected). */
export function claudeSettingsPath(env: Env): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  const home = env.HOME?.trim() || homedir();
  return join(configDir || join(home, '.claude'), 'settings.json');
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file as it is: absent (null), or its object; anything else is refused, never overwritten. */
export function readClaudeSettings(path: string): Result<Json | null> {
  if (!existsSync(path)) return ok(null);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail('internal_error', `Cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text.trim() === '') return ok({});
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return ok(value);
  } catch {
    // Refused below, with the path.
  }
  return fail('invalid_input', `${path} is not a JSON object; fix or move it, then try again (nothing was changed)`);
}

/** The settings with Leeway's env entries; every other key, and every other env entry, kept in its place. */
export function planClaudeSettings(
  current: Json | null,
  values: { baseUrl: string; authToken: string },
): Result<{ next: Json; removed: string[] }> {
  const env = current?.env;
  if (env !== undefined && !isObject(env))
    return fail('invalid_input', 'settings.json has an "env" that is not an object');
  const nextEnv: Json = { ...(env ?? {}) };
  const removed = REMOVED_KEYS.filter((k) => k in nextEnv);
  for (const k of removed) delete nextEnv[k];
  const set: Record<(typeof SET_KEYS)[number], string> = {
    ANTHROPIC_BASE_URL: values.baseUrl.replace(/\/+$/, ''),
    ANTHROPIC_AUTH_TOKEN: values.authToken,
    CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
  };
  for (const k of SET_KEYS) nextEnv[k] = set[k];
  return ok({ next: { ...(current ?? {}), env: nextEnv }, removed });
}

/** A credential shown as `lw-a…wxyz`: enough to recognise, not to use. */
function mask(value: string): string {
  return value.length <= 8 ? '…' : `${value.slice(0, 4)}…${value.slice(-4)}`;
}

const maskedValue = (name: string, value: unknown): unknown =>
  SECRET_NAME.test(name) && typeof value === 'string' ? mask(value) : value;

/** The settings as the preview shows them: env values that look like secrets masked. */
function masked(settings: Json | null): Json | null {
  if (!settings || !isObject(settings.env)) return settings;
  const env = Object.fromEntries(Object.entries(settings.env).map(([k, v]) => [k, maskedValue(k, v)]));
  return { ...settings, env };
}

const render = (settings: Json | null): string => (settings === null ? '' : `${JSON.stringify(settings, null, 2)}\n`);

/** What "Configure" would change, for the preview and the answer (secrets masked). */
export function describeChange(
  path: string,
  current: Json | null,
  next: Json,
  removed: string[],
): ClaudeCodeSettingsChange {
  const nextEnv = isObject(next.env) ? next.env : {};
  const env = Object.fromEntries(SET_KEYS.map((k) => [k, String(maskedValue(k, nextEnv[k]))]));
  return {
    path,
    exists: current !== null,
    env,
    removed,
    diff: diffLines(render(masked(current)), render(masked(next))),
    changes: render(current) !== render(next),
  };
}

/** Writes beside the target and renames over it, so a crash never leaves half a settings file. */
function writeAtomically(path: string, text: string): void {
  // A dotfiles manager's symlink stays a symlink: write where it points.
  const target = existsSync(path) && lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  const temp = `${target}.leeway-tmp-${process.pid}`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, target);
}

/** Backs the file up (or records that there was none), then writes `next`; returns the backup's path. */
export function writeClaudeSettings(path: string, current: Json | null, next: Json, now: number): Result<string> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const backup = `${path}${BACKUP_INFIX}${now}${current === null ? ABSENT_SUFFIX : ''}`;
    if (current === null) writeFileSync(backup, '', { mode: 0o600 });
    else writeFileSync(backup, readFileSync(path), { mode: 0o600 });
    writeAtomically(path, render(next));
    return ok(backup);
  } catch (error) {
    return fail('internal_error', `Cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Leeway's backups of this file, newest first. */
export function backupsOf(path: string): { file: string; at: number; absent: boolean }[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}${BACKUP_INFIX}`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix))
    .map((n) => {
      const rest = n.slice(prefix.length);
      const absent = rest.endsWith(ABSENT_SUFFIX);
      return { file: join(dir, n), at: Number(absent ? rest.slice(0, -ABSENT_SUFFIX.length) : rest), absent };
    })
    .filter((b) => Number.isSafeInteger(b.at))
    .sort((x, y) => y.at - x.at);
}

/** What the Setup tab shows on load (issue 21 §17): the file, whether it points here, and what Undo would restore. */
export function claudeSettingsStatus(path: string, proxyUrl: string): ClaudeCodeSetupStatus {
  const current = readClaudeSettings(path);
  // settings.json's own env block (not Leeway's environment).
  const block = current.ok && current.value !== null ? current.value.env : undefined;
  const baseUrl = isObject(block) ? block.ANTHROPIC_BASE_URL : undefined;
  const newest = backupsOf(path)[0];
  return {
    path,
    configured: typeof baseUrl === 'string' && baseUrl.replace(/\/+$/, '') === proxyUrl.replace(/\/+$/, ''),
    backup: newest ? { path: newest.file, at: newest.at, removesFile: newest.absent } : null,
  };
}

/** Undo: the newest backup goes back in place (no file, if there was none) and is used up. */
export function undoClaudeSettings(path: string): Result<ClaudeCodeUndoResult> {
  const newest = backupsOf(path)[0];
  if (!newest) return fail('not_found', `No Leeway backup of ${path} to restore`);
  try {
    if (newest.absent) rmSync(path, { force: true });
    else writeAtomically(path, readFileSync(newest.file, 'utf8'));
    rmSync(newest.file, { force: true });
  } catch (error) {
    return fail('internal_error', `Cannot restore ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return ok({ path, restoredFrom: newest.file, removedFile: newest.absent });
}
