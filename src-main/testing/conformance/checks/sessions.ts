/**
 * Session headers honoured. What any gateway must do with a client's session id
 * (`x-claude-code-session-id` from Claude Code, `session-id` from codex): accept it (the runs
 * succeed) and keep every request of the session on one upstream connection, so the prompt cache
 * and the account's session state follow it. The suite sees connections as credentials: give the
 * gateway two upstream keys (any strings) and it checks that one session never used both. When the
 * gateway sends everything on one credential (also a few requests without a session), affinity
 * cannot be observed: the row says n-a. Forwarding the header upstream is allowed (the evidence
 * says which); these rows run after the others (phase 1), so the run's traffic shows the spread.
 */
import type { UpstreamExchange } from '../upstream/types';
import { anthropicClient, anthropicParams } from './anthropic-sdk-messages';
import { claudeSession, CLAUDE_MISSING, runProblem } from './claude-code-runs';
import { codexMissing, codexProblem, codexToolRun } from './codex';
import { openaiClient, openaiParams } from './openai-sdk';
import { fail, notApplicable, pass, type Check, type Outcome, type SuiteContext } from './types';

const SPREAD_PROBES = 4;

/** A credential as evidence: its last five characters only. */
const tail = (credential: string): string => (credential === '' ? '(none)' : `…${credential.slice(-5)}`);

/** Anthropic, or OpenAI (Chat Completions and Responses share a provider's keys); null for the rest. */
function family(exchange: UpstreamExchange): string | null {
  return exchange.api === null ? null : exchange.api === 'anthropic' ? 'anthropic' : 'openai';
}

/** The credentials the gateway used for one API family in the whole run. */
function credentialsOf(ctx: SuiteContext, of: string | null): Set<string> {
  return new Set(ctx.upstream.exchanges.filter((e) => family(e) === of).map((e) => e.credential));
}

/**
 * Whether the gateway spreads requests over two credentials at all: if the run so far shows one,
 * a few requests without a session (as `--only` runs may need) tell.
 */
async function spread(ctx: SuiteContext, of: 'anthropic' | 'openai'): Promise<Set<string>> {
  for (let i = 0; i < SPREAD_PROBES && credentialsOf(ctx, of).size < 2; i++) {
    if (of === 'anthropic') await anthropicClient(ctx).messages.create(anthropicParams(ctx, 'text', ctx.nonce()));
    else await openaiClient(ctx).chat.completions.create(openaiParams(ctx, 'text', ctx.nonce()));
  }
  return credentialsOf(ctx, of);
}

async function affinity(
  ctx: SuiteContext,
  requests: UpstreamExchange[],
  header: string,
  of: 'anthropic' | 'openai',
): Promise<Outcome> {
  if (requests.length === 0) return fail('no request of the session reached the upstream');
  const used = new Set(requests.map((e) => e.credential));
  const all = await spread(ctx, of);
  if (used.size > 1)
    return fail(
      `the session's ${requests.length} requests went out on ${used.size} credentials (${[...used].map(tail).join(', ')})`,
    );
  const forwarded = requests.some((e) => e.record.headers[header] !== undefined) ? 'forwarded' : 'not forwarded';
  if (all.size < 2)
    return notApplicable(
      `${requests.length} requests served, but the gateway used one upstream credential all run (give it two)`,
    );
  return pass(
    `${requests.length} requests, all on ${tail([...used][0] ?? '')} of the ${all.size} in use; ${header} ${forwarded} upstream`,
  );
}

async function claudeAffinity(ctx: SuiteContext): Promise<Outcome> {
  const session = await claudeSession(ctx);
  if (session === null) return notApplicable(CLAUDE_MISSING);
  const problem =
    runProblem(session.first, `answer ${session.first.nonce}`) ??
    runProblem(session.second, `answer ${session.second.nonce}`);
  if (problem) return fail(problem);
  const requests = [session.first.nonce, session.second.nonce].flatMap((n) => ctx.upstream.byNonce(n));
  return affinity(ctx, requests, 'x-claude-code-session-id', 'anthropic');
}

async function codexAffinity(ctx: SuiteContext): Promise<Outcome> {
  const step = await codexToolRun(ctx);
  if (step === null) return codexMissing();
  const problem = codexProblem(step);
  if (problem) return fail(problem);
  return affinity(ctx, ctx.upstream.byNonce(step.nonce), 'session-id', 'openai');
}

export const sessionChecks: Check[] = [
  {
    id: 'session-claude-code',
    title: 'session kept on one connection (--session-id, --resume)',
    client: 'Claude Code',
    run: claudeAffinity,
    phase: 1,
  },
  {
    id: 'session-codex',
    title: 'session kept on one connection (session-id)',
    client: 'codex',
    run: codexAffinity,
    phase: 1,
  },
];
