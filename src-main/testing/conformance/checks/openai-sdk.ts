/**
 * Checks through the OpenAI TypeScript SDK on `/v1/chat/completions` and `/v1/models`: tool-call
 * arguments rebuilt from many deltas, keep-alive comments, usage, finish reasons, errors verbatim.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { isDeepStrictEqual } from 'node:util';
import { markerText, type Scenario } from '../upstream/markers';
import { FRAGMENTS, USAGE } from '../upstream/answer-kit';
import { LOOKUP_TOOL } from '../upstream/tool-inputs';
import { compareBytes, errorTap, type ErrorTap } from './error-bytes';
import { listedModels } from './models';
import { errorText, sentFor } from './upstream-facts';
import { compareKeepAlives, openaiHeaders, wire } from './wire';
import { clip, fail, pass, type Check, type Outcome, type SuiteContext } from './types';

/** The SDK as an application would set it up against the gateway (no retries: the suite wants first answers). */
export function openaiClient(ctx: SuiteContext, tap?: ErrorTap): OpenAI {
  const fetch = tap === undefined ? {} : { fetch: tap.fetch };
  return new OpenAI({ baseURL: `${ctx.url}/v1`, apiKey: ctx.key, maxRetries: 0, timeout: ctx.timeoutMs, ...fetch });
}

/** The request body of one marked prompt (the suite's tool offered for the tool scenario). */
export function openaiParams(
  ctx: SuiteContext,
  scenario: Scenario,
  nonce: string,
): Omit<ChatCompletionCreateParamsNonStreaming, 'stream'> {
  return {
    model: ctx.models.openai,
    messages: [{ role: 'user', content: `Conformance check, please answer. ${markerText(scenario, nonce)}` }],
    ...(scenario === 'tool'
      ? { tools: [{ type: 'function', function: { ...LOOKUP_TOOL, parameters: { type: 'object' } } }] }
      : {}),
  };
}

async function toolFragments(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const completion = await openaiClient(ctx)
    .chat.completions.stream(openaiParams(ctx, 'tool', nonce))
    .finalChatCompletion();
  const sent = sentFor(ctx, nonce, 'tool').value;
  const choice = completion.choices[0];
  const call = choice?.message.tool_calls?.[0];
  if (call?.type !== 'function') return fail(`no function call; finish_reason ${choice?.finish_reason}`);
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments);
  } catch {
    return fail(`arguments are not JSON: ${clip(call.function.arguments)}`);
  }
  if (!isDeepStrictEqual(input, sent.input)) return fail(`arguments ${clip(input)} ≠ sent ${clip(sent.input)}`);
  if (choice?.finish_reason !== 'tool_calls')
    return fail(`arguments intact but finish_reason ${choice?.finish_reason}`);
  return pass(`${FRAGMENTS} arguments deltas → ${call.function.arguments.length}-char arguments identical`);
}

async function keepAlive(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const completion = await openaiClient(ctx)
    .chat.completions.stream(openaiParams(ctx, 'keepalive', nonce))
    .finalChatCompletion();
  const text = completion.choices[0]?.message.content ?? '';
  const sentText = sentFor(ctx, nonce, 'text').value;
  if (text !== sentText) return fail(`the SDK read ${clip(text)} ≠ sent ${clip(sentText)}`);
  const raw = ctx.nonce();
  const body = JSON.stringify({ ...openaiParams(ctx, 'keepalive', raw), stream: true });
  const got = await wire(`${ctx.url}/v1/chat/completions`, {
    method: 'POST',
    headers: openaiHeaders(ctx.key),
    body,
    timeoutMs: ctx.timeoutMs,
  });
  const frames = compareKeepAlives(sentFor(ctx, raw, 'text').exchange.record.response?.body ?? '', got.body);
  return frames.ok ? pass(`the SDK read the text; ${frames.text}`) : fail(`the SDK read the text, but ${frames.text}`);
}

async function streamUsage(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const stream = await openaiClient(ctx).chat.completions.create({
    ...openaiParams(ctx, 'text', nonce),
    stream: true,
    stream_options: { include_usage: true },
  });
  let usage: OpenAI.CompletionUsage | null | undefined = null;
  for await (const chunk of stream) usage = chunk.usage ?? usage;
  sentFor(ctx, nonce, 'usage');
  if (!usage) return fail('no usage chunk reached the client (stream_options.include_usage was set)');
  if (usage.prompt_tokens !== USAGE.input || usage.completion_tokens !== USAGE.output)
    return fail(
      `usage ${usage.prompt_tokens} / ${usage.completion_tokens} ≠ upstream ${USAGE.input} / ${USAGE.output}`,
    );
  return pass(`usage chunk ${usage.prompt_tokens} prompt / ${usage.completion_tokens} completion, as sent`);
}

async function stopReasons(ctx: SuiteContext): Promise<Outcome> {
  const openai = openaiClient(ctx);
  const json = await openai.chat.completions.create(openaiParams(ctx, 'max-tokens', ctx.nonce()));
  const streamed = await openai.chat.completions
    .stream(openaiParams(ctx, 'max-tokens', ctx.nonce()))
    .finalChatCompletion();
  const plain = await openai.chat.completions.create(openaiParams(ctx, 'text', ctx.nonce()));
  const seen = [json, streamed, plain].map((c) => c.choices[0]?.finish_reason);
  const wanted = ['length', 'length', 'stop'];
  if (!isDeepStrictEqual(seen, wanted)) return fail(`finish_reason ${seen.join(', ')} ≠ sent ${wanted.join(', ')}`);
  return pass('length (JSON, stream) and stop arrive as sent');
}

async function models(ctx: SuiteContext): Promise<Outcome> {
  const raw = await listedModels(ctx, 'openai');
  if (raw.problem) return fail(raw.problem);
  const ids: string[] = [];
  for await (const model of openaiClient(ctx).models.list()) ids.push(model.id);
  if (!ids.includes(ctx.models.openai)) return fail(`the SDK listed ${clip(ids)}, not ${ctx.models.openai}`);
  return pass(`${raw.status} in ${raw.ms} ms, no redirect; ${ids.length} models incl. ${ctx.models.openai}`);
}

async function errorVerbatim(ctx: SuiteContext, scenario: 'error-4xx' | 'error-5xx'): Promise<Outcome> {
  const nonce = ctx.nonce();
  let caught: unknown = null;
  const tap = errorTap();
  try {
    await openaiClient(ctx, tap).chat.completions.create(openaiParams(ctx, scenario, nonce));
  } catch (error) {
    caught = error;
  }
  const sent = sentFor(ctx, nonce, 'error').value;
  if (!(caught instanceof APIError)) return fail(caught === null ? 'the request succeeded' : errorText(caught));
  const envelope = JSON.parse(sent.body) as { error: unknown };
  if (caught.status !== sent.status)
    return fail(`status ${caught.status} ≠ upstream ${sent.status}: ${clip(caught.error)}`);
  if (!isDeepStrictEqual(caught.error, envelope.error))
    return fail(`error ${clip(caught.error)} ≠ sent ${clip(envelope.error)}`);
  return pass(`${sent.status}, the upstream's body (${sent.body.length} B; ${compareBytes(tap.body(), sent.body)})`);
}

export const openaiChecks: Check[] = [
  {
    id: 'tool-fragments-openai',
    title: 'tool_call arguments rebuilt from fragments',
    client: 'OpenAI SDK',
    run: toolFragments,
  },
  { id: 'keepalive-openai', title: 'SSE keep-alive comments passed', client: 'OpenAI SDK', run: keepAlive },
  { id: 'models-openai', title: '/v1/models, OpenAI shape', client: 'OpenAI SDK', run: models },
  {
    id: 'error-4xx-openai',
    title: 'error body verbatim (400)',
    client: 'OpenAI SDK',
    run: (ctx) => errorVerbatim(ctx, 'error-4xx'),
  },
  {
    id: 'error-5xx-openai',
    title: 'error body verbatim (500)',
    client: 'OpenAI SDK',
    run: (ctx) => errorVerbatim(ctx, 'error-5xx'),
    phase: 2,
  },
  { id: 'usage-stream-openai', title: 'streaming usage reported', client: 'OpenAI SDK', run: streamUsage },
  { id: 'stop-reasons-openai', title: 'finish reasons kept', client: 'OpenAI SDK', run: stopReasons },
];
