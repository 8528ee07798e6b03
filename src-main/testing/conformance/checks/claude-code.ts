/**
 * Rows for the real Claude Code CLI: what it sent back on the turn after a streamed thinking + tool
 * call answer (signature and input as it rebuilt them), `?beta=true`, gateway model discovery,
 * an upstream error shown as the upstream wrote it.
 */
import { isDeepStrictEqual } from 'node:util';
import { field } from '../../fake-upstream-plans';
import type { UpstreamExchange } from '../upstream/types';
import {
  CLAUDE_MISSING,
  claudeRefused,
  claudeSession,
  resultOf,
  runProblem,
  type ClaudeSession,
} from './claude-code-runs';
import { sentFor } from './upstream-facts';
import { clip, fail, notApplicable, pass, type Check, type Outcome, type SuiteContext } from './types';

type Block = Record<string, unknown>;

/** The content blocks of the assistant turns Claude Code sent back in its follow-up request. */
function echoedBlocks(followUp: UpstreamExchange): Block[] {
  const messages = field(followUp.record.json, 'messages');
  if (!Array.isArray(messages)) return [];
  return messages
    .filter((m) => field(m, 'role') === 'assistant')
    .flatMap((m) => {
      const content = field(m, 'content');
      return Array.isArray(content) ? (content as Block[]) : [];
    });
}

/** The session's first run, its follow-up request, or the outcome that says why there is none. */
async function firstTurn(ctx: SuiteContext): Promise<{ session: ClaudeSession; followUp: UpstreamExchange } | Outcome> {
  const session = await claudeSession(ctx);
  if (session === null) return notApplicable(CLAUDE_MISSING);
  const problem = runProblem(session.first, `thinking-tool answer ${session.first.nonce}`);
  const followUp = ctx.upstream.byNonce(session.first.nonce).find((e) => e.marker?.followUp === true);
  if (followUp === undefined) return fail(problem ?? 'Claude Code never sent the turn after the tool call');
  if (problem) return fail(problem);
  return { session, followUp };
}

async function thinking(ctx: SuiteContext): Promise<Outcome> {
  const turn = await firstTurn(ctx);
  if ('result' in turn) return turn;
  const sent = sentFor(ctx, turn.session.first.nonce, 'thinking').value;
  const blocks = echoedBlocks(turn.followUp);
  const signature = blocks.find((b) => b.type === 'thinking')?.signature;
  const redacted = blocks.find((b) => b.type === 'redacted_thinking')?.data;
  if (signature !== sent.signature)
    return fail(`sent back signature ${clip(signature, 24)} ≠ streamed ${clip(sent.signature, 24)}`);
  if (redacted !== sent.redacted) return fail('redacted_thinking data sent back changed or missing');
  return pass(`streamed signature (${sent.signature.length} chars) came back intact next turn`);
}

async function toolInput(ctx: SuiteContext): Promise<Outcome> {
  const turn = await firstTurn(ctx);
  if ('result' in turn) return turn;
  const sent = sentFor(ctx, turn.session.first.nonce, 'tool').value;
  const call = echoedBlocks(turn.followUp).find((b) => b.type === 'tool_use');
  if (!call) return fail('the next turn carries no tool_use block');
  if (!isDeepStrictEqual(call.input, sent.input))
    return fail(`${sent.name} input ${clip(call.input)} ≠ sent ${clip(sent.input)}`);
  return pass(`${sent.name} input rebuilt from fragments and sent back identical`);
}

async function beta(ctx: SuiteContext): Promise<Outcome> {
  const turn = await firstTurn(ctx);
  if ('result' in turn) return turn;
  const paths = ctx.upstream.byNonce(turn.session.first.nonce).map((e) => e.record.path);
  const bare = paths.filter((p) => !/[?&]beta=true(&|$)/.test(p));
  if (bare.length > 0) return fail(`accepted, but ${bare.length}/${paths.length} forwarded as ${bare[0]}`);
  return pass(`${paths.length} requests accepted; upstream saw ${paths[0] ?? '?'}`);
}

async function discovery(ctx: SuiteContext): Promise<Outcome> {
  const session = await claudeSession(ctx);
  if (session === null) return notApplicable(CLAUDE_MISSING);
  if (session.discovered === null)
    return fail('Claude Code cached no gateway model list (GET /v1/models?limit=1000 failed?)');
  const cached = JSON.parse(session.discovered) as { models?: { id?: string }[] };
  const ids = (cached.models ?? []).map((m) => m.id);
  if (!ids.includes(ctx.models.anthropic)) return fail(`/model would offer ${clip(ids)}, not ${ctx.models.anthropic}`);
  return pass(`/model offers ${ids.length} from the gateway, incl. ${ctx.models.anthropic}`);
}

async function errorShown(ctx: SuiteContext): Promise<Outcome> {
  const refused = await claudeRefused(ctx);
  if (refused === null) return notApplicable(CLAUDE_MISSING);
  const sent = sentFor(ctx, refused.nonce, 'error').value;
  const message = String(field(field(JSON.parse(sent.body), 'error'), 'message'));
  const result = resultOf(refused.run);
  if (result?.api_error_status !== sent.status)
    return fail(`Claude Code saw status ${result?.api_error_status ?? '?'} ≠ ${sent.status}`);
  if (!result.result?.includes(message))
    return fail(`Claude Code showed ${clip(result.result)}, not the upstream's message`);
  return pass(`${sent.status} with the upstream's message: ${clip(result.result, 50)}`);
}

export const claudeCodeChecks: Check[] = [
  { id: 'thinking-claude-code', title: 'thinking signature intact (sent back)', client: 'Claude Code', run: thinking },
  {
    id: 'tool-fragments-claude-code',
    title: 'tool_use input rebuilt from fragments',
    client: 'Claude Code',
    run: toolInput,
  },
  { id: 'beta-claude-code', title: '?beta=true accepted and forwarded', client: 'Claude Code', run: beta },
  { id: 'discovery-claude-code', title: 'gateway model discovery', client: 'Claude Code', run: discovery },
  { id: 'error-claude-code', title: 'error body verbatim (400)', client: 'Claude Code', run: errorShown },
];
