/**
 * The Claude Code CLI runs the suite makes (each once, shared by several rows): a session of two
 * `-p` runs (`--session-id`, then `--resume`) whose first turn gets thinking, pings and a tool call,
 * with gateway model discovery on; and one run whose request the upstream refuses.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findClaudeBinary, runClaude, type ClaudeRun } from '../../clients/claude-code-binary';
import { markerText, type Scenario } from '../upstream/markers';
import type { SuiteContext } from './types';

export interface ClaudeStep {
  nonce: string;
  run: ClaudeRun;
}

export interface ClaudeSession {
  sessionId: string;
  first: ClaudeStep;
  second: ClaudeStep;
  /** `~/.claude/cache/gateway-models.json` after the first run, or null when Claude Code wrote none. */
  discovered: string | null;
}

export const CLAUDE_MISSING = 'the Claude Code binary is not installed (npm install: @anthropic-ai/claude-code)';

/** The environment the setup snippets give Claude Code, with every side request on the suite's model. */
function claudeEnv(ctx: SuiteContext, extra: Record<string, string>): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_AUTH_TOKEN: ctx.key,
    ANTHROPIC_SMALL_FAST_MODEL: ctx.models.anthropic,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: ctx.models.anthropic,
    ANTHROPIC_DEFAULT_SONNET_MODEL: ctx.models.anthropic,
    ANTHROPIC_DEFAULT_OPUS_MODEL: ctx.models.anthropic,
    ...extra,
  };
}

async function step(
  ctx: SuiteContext,
  binary: string,
  scenario: Scenario,
  args: string[],
  options: { home?: string; env?: Record<string, string> },
): Promise<ClaudeStep> {
  const nonce = ctx.nonce();
  const prompt = `Conformance check, please answer. ${markerText(scenario, nonce)}`;
  const run = await runClaude(
    binary,
    ['-p', prompt, '--model', ctx.models.anthropic, '--output-format', 'json', ...args],
    {
      baseUrl: ctx.url,
      apiKey: '',
      env: claudeEnv(ctx, options.env ?? {}),
      timeoutMs: ctx.timeoutMs,
      ...(options.home === undefined ? {} : { home: options.home }),
    },
  );
  return { nonce, run };
}

/** The two-run session; null when the binary is missing. */
export function claudeSession(ctx: SuiteContext): Promise<ClaudeSession | null> {
  return ctx.once('claude:session', async () => {
    const binary = findClaudeBinary();
    if (binary === null) return null;
    const home = mkdtempSync(join(tmpdir(), 'conformance-claude-'));
    try {
      const sessionId = randomUUID();
      // Model discovery is "non-essential traffic" for Claude Code: allowed for this run.
      const discovery = {
        CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '',
      };
      const first = await step(ctx, binary, 'thinking-tool', ['--session-id', sessionId], { home, env: discovery });
      const cache = join(home, '.claude', 'cache', 'gateway-models.json');
      const discovered = existsSync(cache) ? readFileSync(cache, 'utf8') : null;
      const second = await step(ctx, binary, 'text', ['--resume', sessionId], { home });
      return { sessionId, first, second, discovered };
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
}

/** One run the upstream answers with a 400; null when the binary is missing. */
export function claudeRefused(ctx: SuiteContext): Promise<ClaudeStep | null> {
  return ctx.once('claude:error', async () => {
    const binary = findClaudeBinary();
    if (binary === null) return null;
    return step(ctx, binary, 'error-4xx', [], { env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
  });
}

/** `claude -p --output-format json` prints one result object. */
export function resultOf(
  run: ClaudeRun,
): { is_error?: boolean; result?: string; api_error_status?: number | null } | null {
  try {
    return JSON.parse(run.stdout) as { is_error?: boolean; result?: string; api_error_status?: number | null };
  } catch {
    return null;
  }
}

/** Why a run that should have succeeded did not, or null. */
export function runProblem(step: ClaudeStep, expected: string): string | null {
  const result = resultOf(step.run);
  if (step.run.code === 0 && result?.result?.includes(expected)) return null;
  const said = result?.result ?? (step.run.stderr.trim() || step.run.stdout.trim());
  return `claude exited ${step.run.code ?? 'on timeout'}: ${said.slice(0, 120)}`;
}
