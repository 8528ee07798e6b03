/**
 * The Gemini API rows (issue 23 §1/§4): Google's SDK (@google/genai, its SSE parser) and the real
 * Gemini CLI through the gateway's `/v1beta`, on the suite's Anthropic model, so a gateway serves
 * them by translating to Messages (or by any Gemini route it has for that name). A gateway without
 * `/v1beta` gets n-a, with the probe's answer as evidence.
 */
import { GoogleGenAI } from '@google/genai';
import { geminiCliMissingReason, runGeminiCli, type GeminiCliRun } from '../../clients/gemini-cli-binary';
import { field } from '../../fake-upstream-plans';
import { markerText } from '../upstream/markers';
import { errorText, sentFor } from './upstream-facts';
import { wire } from './wire';
import { clip, fail, notApplicable, pass, type Check, type Outcome, type SuiteContext } from './types';

/** Why the gateway's `/v1beta` cannot be checked, or null when `GET /v1beta/models` answers 200. */
function probe(ctx: SuiteContext): Promise<string | null> {
  return ctx.once('gemini:probe', async () => {
    try {
      const answer = await wire(`${ctx.url}/v1beta/models`, {
        method: 'GET',
        headers: { 'x-goog-api-key': ctx.key },
        timeoutMs: 3000,
      });
      return answer.status === 200 ? null : `the gateway has no /v1beta (GET /v1beta/models → ${answer.status})`;
    } catch (error) {
      return `GET /v1beta/models got no answer (${errorText(error)})`;
    }
  });
}

function prompt(scenario: 'text' | 'tool', nonce: string): string {
  return `Conformance check, please answer. ${markerText(scenario, nonce)}`;
}

async function geminiSdk(ctx: SuiteContext): Promise<Outcome> {
  const absent = await probe(ctx);
  if (absent !== null) return notApplicable(absent);
  const client = new GoogleGenAI({ apiKey: ctx.key, httpOptions: { baseUrl: ctx.url, timeout: ctx.timeoutMs } });
  const model = ctx.models.anthropic;
  try {
    const streamed = ctx.nonce();
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model, contents: prompt('text', streamed) }))
      text += chunk.text ?? '';
    const sentStream = sentFor(ctx, streamed, 'text').value;
    if (text !== sentStream) return fail(`streamGenerateContent text ${clip(text)} ≠ sent ${clip(sentStream)}`);
    const whole = ctx.nonce();
    const answer = await client.models.generateContent({ model, contents: prompt('text', whole) });
    const sentWhole = sentFor(ctx, whole, 'text').value;
    if (answer.text !== sentWhole) return fail(`generateContent text ${clip(answer.text)} ≠ sent ${clip(sentWhole)}`);
    return pass('generateContent and streamGenerateContent (alt=sse) text identical');
  } catch (error) {
    return fail(errorText(error));
  }
}

/** What the CLI sent back for the upstream's call: the follow-up's tool_result for that call's id. */
function toolResultFor(ctx: SuiteContext, nonce: string): string | null {
  const followUp = ctx.upstream.byNonce(nonce).find((e) => e.marker?.followUp === true);
  const messages = field(followUp?.record.json, 'messages');
  if (!Array.isArray(messages)) return null;
  const blocks: unknown[] = messages.flatMap((m) => {
    const content = field(m, 'content');
    return Array.isArray(content) ? content : [];
  });
  const result = blocks.find((b) => field(b, 'type') === 'tool_result');
  const id = field(result, 'tool_use_id');
  return typeof id === 'string' ? id : null;
}

async function geminiCli(ctx: SuiteContext): Promise<Outcome> {
  const missing = geminiCliMissingReason();
  if (missing !== null) return notApplicable(missing);
  const absent = await probe(ctx);
  if (absent !== null) return notApplicable(absent);
  const nonce = ctx.nonce();
  const run: GeminiCliRun = await runGeminiCli(prompt('tool', nonce), {
    baseUrl: ctx.url,
    apiKey: ctx.key,
    model: ctx.models.anthropic,
    timeoutMs: ctx.timeoutMs,
  });
  if (run.code !== 0 || !run.stdout.includes(`answer ${nonce}`)) {
    const said = run.stdout.trim() || run.stderr.trim().split('\n').slice(-2).join(' ');
    return fail(`gemini -p exited ${run.code ?? 'on timeout'}: ${clip(said, 120)}`);
  }
  const sent = sentFor(ctx, nonce, 'tool');
  const resultId = toolResultFor(ctx, nonce);
  if (resultId === null) return fail(`${sent.value.name} was called, but no tool_result came back`);
  // The call's id went to the CLI inside Google's shape and must come back on the functionResponse.
  if (!resultId.startsWith(`toolu_conformance_${nonce}_`))
    return fail(`the tool_result answers ${clip(resultId, 40)}, not the call the upstream made`);
  return pass(
    `${sent.value.name} called, run by the CLI, its result sent back (${clip(resultId, 40)}), final answer shown`,
  );
}

export const geminiChecks: Check[] = [
  { id: 'gemini-sdk', title: 'generateContent / streamGenerateContent', client: 'Gemini SDK', run: geminiSdk },
  { id: 'gemini-cli', title: 'one-shot prompt with a tool call', client: 'Gemini CLI', run: geminiCli },
];
