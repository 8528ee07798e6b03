/**
 * Rows for the real codex CLI (Responses API, `wire_api = "responses"`): one `codex exec` whose
 * first turn gets a reasoning item (opaque `encrypted_content`) and a streamed function call cut
 * into many `function_call_arguments.delta` events; codex runs the call and sends reasoning, call
 * and output back on the next turn.
 */
import { isDeepStrictEqual } from 'node:util';
import { codexMissingReason, findCodexBinary, runCodex, type CodexRun } from '../../clients/codex-binary';
import { field } from '../../fake-upstream-plans';
import { markerText } from '../upstream/markers';
import { sentFor } from './upstream-facts';
import { clip, fail, notApplicable, pass, type Check, type Outcome, type SuiteContext } from './types';

export interface CodexStep {
  nonce: string;
  run: CodexRun;
}

/** The one codex run; null when the binary is missing. */
export function codexToolRun(ctx: SuiteContext): Promise<CodexStep | null> {
  return ctx.once('codex:tool', async () => {
    const binary = findCodexBinary();
    if (binary === null) return null;
    const nonce = ctx.nonce();
    const prompt = `Conformance check, please answer. ${markerText('thinking-tool', nonce)}`;
    const run = await runCodex(binary, prompt, {
      baseUrl: ctx.url,
      apiKey: ctx.key,
      model: ctx.models.openai,
      timeoutMs: ctx.timeoutMs,
    });
    return { nonce, run };
  });
}

export function codexMissing(): Outcome {
  return notApplicable(codexMissingReason() ?? 'the codex binary is not installed');
}

/** Why the run did not finish as it should, or null. */
export function codexProblem(step: CodexStep): string | null {
  if (step.run.code === 0 && step.run.stdout.includes(`answer ${step.nonce}`)) return null;
  const said = step.run.stdout.trim() || step.run.stderr.trim().split('\n').slice(-2).join(' ');
  return `codex exited ${step.run.code ?? 'on timeout'}: ${said.slice(0, 120)}`;
}

/** The items codex sent back on the turn after the call, or the outcome that says why there are none. */
async function nextTurn(ctx: SuiteContext): Promise<{ step: CodexStep; items: unknown[] } | Outcome> {
  const step = await codexToolRun(ctx);
  if (step === null) return codexMissing();
  const followUp = ctx.upstream.byNonce(step.nonce).find((e) => e.marker?.followUp === true);
  if (followUp === undefined) return fail(codexProblem(step) ?? 'codex never sent the turn after the function call');
  const problem = codexProblem(step);
  if (problem) return fail(problem);
  const input = field(followUp.record.json, 'input');
  return { step, items: Array.isArray(input) ? input : [] };
}

async function toolArguments(ctx: SuiteContext): Promise<Outcome> {
  const turn = await nextTurn(ctx);
  if ('result' in turn) return turn;
  const sent = sentFor(ctx, turn.step.nonce, 'tool').value;
  const args = field(
    turn.items.find((item) => field(item, 'type') === 'function_call'),
    'arguments',
  );
  if (typeof args !== 'string') return fail('the next turn carries no function_call item');
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return fail(`sent back arguments are not JSON: ${clip(args)}`);
  }
  if (!isDeepStrictEqual(parsed, sent.input))
    return fail(`${sent.name} arguments ${clip(parsed)} ≠ sent ${clip(sent.input)}`);
  return pass(`${sent.name} arguments rebuilt from deltas, run, and sent back identical`);
}

async function reasoning(ctx: SuiteContext): Promise<Outcome> {
  const turn = await nextTurn(ctx);
  if ('result' in turn) return turn;
  const sent = sentFor(ctx, turn.step.nonce, 'reasoning').value;
  const item = turn.items.find((i) => field(i, 'type') === 'reasoning');
  const back = field(item, 'encrypted_content');
  if (typeof back !== 'string') return fail('the next turn carries no reasoning item with encrypted_content');
  if (back !== sent) return fail(`encrypted_content ${clip(back, 24)} ≠ sent ${clip(sent, 24)}`);
  return pass(`encrypted_content (${sent.length} chars) came back intact next turn`);
}

export const codexChecks: Check[] = [
  {
    id: 'reasoning-codex',
    title: 'reasoning encrypted_content intact (sent back)',
    client: 'codex',
    run: reasoning,
  },
  {
    id: 'tool-fragments-codex',
    title: 'function_call arguments rebuilt from fragments',
    client: 'codex',
    run: toolArguments,
  },
];
