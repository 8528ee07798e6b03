import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** What Claude Code keeps for a subscription login (`claudeAiOauth` in its credentials). */
export interface ClaudeCredentials {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scopes: string[];
  subscriptionType: string | null;
}

const credentialsSchema = z.object({
  claudeAiOauth: z.object({
    accessToken: z.string().min(1),
    refreshToken: z.string().min(1).optional().nullable(),
    expiresAt: z.number().optional().nullable(),
    scopes: z.array(z.string()).optional().nullable(),
    subscriptionType: z.string().optional().nullable(),
  }),
});

export type CredentialsRead = { ok: true; value: ClaudeCredentials; source: string } | { ok: false; message: string };

/** Parses Claude Code's credentials JSON; messages name the problem, never the content. */
export function parseClaudeCredentials(text: string, source: string): CredentialsRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: `${source} is not valid JSON` };
  }
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: `${source} has no claudeAiOauth login (sign in with \`claude\` first)` };
  const o = parsed.data.claudeAiOauth;
  return {
    ok: true,
    source,
    value: {
      accessToken: o.accessToken,
      refreshToken: o.refreshToken ?? null,
      expiresAt: o.expiresAt ?? null,
      scopes: o.scopes ?? [],
      subscriptionType: o.subscriptionType ?? null,
    },
  };
}

/** `$CLAUDE_CONFIG_DIR/.credentials.json`, else `~/.claude/.credentials.json` (Linux and Windows). */
export function credentialsPath(env: Record<string, string | undefined>, home = homedir()): string {
  const dir = env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.length > 0 ? env.CLAUDE_CONFIG_DIR : join(home, '.claude');
  return join(dir, '.credentials.json');
}

const KEYCHAIN_SERVICE = 'Claude Code-credentials';

/** macOS keeps the same JSON in the login keychain; `security` prints it on stdout. */
function readKeychain(): Promise<CredentialsRead> {
  return new Promise((resolve) => {
    execFile(
      'security',
      ['find-generic-password', '-s', KEYCHAIN_SERVICE, '-w'],
      { timeout: 10_000 },
      (error, stdout) => {
        if (error) return resolve({ ok: false, message: `no "${KEYCHAIN_SERVICE}" item in the macOS keychain` });
        resolve(parseClaudeCredentials(stdout.trim(), 'the macOS keychain'));
      },
    );
  });
}

/**
 * Reads the credentials Claude Code already stores on this machine: the file (`path`, else found
 * through `env`, the environment the entry read), else (macOS) the keychain.
 */
export async function readClaudeCredentials(options: {
  env: Readonly<Record<string, string | undefined>>;
  path?: string;
  platform?: string;
}): Promise<CredentialsRead> {
  const file = options.path ?? credentialsPath(options.env);
  try {
    return parseClaudeCredentials(await readFile(file, 'utf8'), file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    if ((options.platform ?? process.platform) === 'darwin' && options.path === undefined) return readKeychain();
    return { ok: false, message: `cannot read ${file} (${code})` };
  }
}
