/**
 * Checks through the Anthropic TypeScript SDK on `/v1/messages`: thinking signatures (JSON and
 * stream), tool input rebuilt from many `input_json_delta` fragments, usage and stop reasons.
 */
import Anthropic from '@anthropic-ai/sdk';
import { isDeepStrictEqual } from 'node:util';
import { markerText, type Scenario } from '../upstream/markers';
import { FRAGMENTS, USAGE } from '../upstream/answer-kit';
import type { ThinkingBlocks } from '../upstream/thinking';
import { LOOKUP_TOOL } from '../upstream/tool-inputs';
import type { ErrorTap } from './error-bytes';
import { sentFor } from './upstream-facts';
import { clip, fail, pass, type Check, type Outcome, type SuiteContext } from './types';

/** The SDK as an application would set it up against the gateway (no retries: the suite wants first answers). */
export function anthropicClient(ctx: SuiteContext, tap?: ErrorTap): Anthropic {
  const fetch = tap === undefined ? {} : { fetch: tap.fetch };
  return new Anthropic({ baseURL: ctx.url, apiKey: ctx.key, maxRetries: 0, timeout: ctx.timeoutMs, ...fetch });
}

/** The request body of one marked prompt. */
export function anthropicParams(
  ctx: SuiteContext,
  scenario: Scenario,
  nonce: string,
): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model: ctx.models.anthropic,
    max_tokens: 1024,
    messages: [{ role: 'user', content: `Conformance check, please answer. ${markerText(scenario, nonce)}` }],
    ...(scenario === 'thinking' ? { thinking: { type: 'enabled', budget_tokens: 512 } } : {}),
    ...(scenario === 'tool'
      ? { tools: [{ ...LOOKUP_TOOL, input_schema: { type: 'object' as const, additionalProperties: true } }] }
      : {}),
  };
}

/** Whether the client's thinking blocks carry the upstream's signature and redacted data unchanged. */
export function compareThinking(
  sent: ThinkingBlocks,
  content: readonly Anthropic.ContentBlock[],
  how: string,
): Outcome {
  const thinking = content.find((b) => b.type === 'thinking');
  const redacted = content.find((b) => b.type === 'redacted_thinking');
  if (!thinking) return fail(`${how}: no thinking block reached the client (${content.map((b) => b.type).join(', ')})`);
  if (thinking.signature !== sent.signature)
    return fail(
      `${how}: signature ${clip(thinking.signature, 24)} (${thinking.signature.length} B) ≠ sent ${clip(sent.signature, 24)}`,
    );
  if (redacted?.data !== sent.redacted) return fail(`${how}: redacted_thinking data changed or lost`);
  return pass(`${how}: ${sent.signature.length}-char signature and redacted_thinking data identical`);
}

async function thinking(ctx: SuiteContext, stream: boolean): Promise<Outcome> {
  const client = anthropicClient(ctx);
  const nonce = ctx.nonce();
  const params = anthropicParams(ctx, 'thinking', nonce);
  const message = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
  return compareThinking(sentFor(ctx, nonce, 'thinking').value, message.content, stream ? 'stream' : 'JSON');
}

async function toolFragments(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const message = await anthropicClient(ctx)
    .messages.stream(anthropicParams(ctx, 'tool', nonce))
    .finalMessage();
  const sent = sentFor(ctx, nonce, 'tool').value;
  const call = message.content.find((b) => b.type === 'tool_use');
  if (!call) return fail(`no tool_use block; stop_reason ${message.stop_reason}`);
  if (!isDeepStrictEqual(call.input, sent.input)) return fail(`input ${clip(call.input)} ≠ sent ${clip(sent.input)}`);
  if (message.stop_reason !== 'tool_use') return fail(`input intact but stop_reason ${message.stop_reason}`);
  return pass(
    `${FRAGMENTS + 1} input_json_delta fragments → ${JSON.stringify(sent.input).length}-char input identical`,
  );
}

async function streamUsage(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const message = await anthropicClient(ctx)
    .messages.stream(anthropicParams(ctx, 'text', nonce))
    .finalMessage();
  sentFor(ctx, nonce, 'usage');
  const { input_tokens: input, output_tokens: output } = message.usage;
  if (input !== USAGE.input || output !== USAGE.output)
    return fail(`usage ${input} in / ${output} out ≠ upstream ${USAGE.input} / ${USAGE.output}`);
  return pass(`message_start + message_delta usage ${input} in / ${output} out, as sent`);
}

async function stopReasons(ctx: SuiteContext): Promise<Outcome> {
  const client = anthropicClient(ctx);
  const json = await client.messages.create(anthropicParams(ctx, 'max-tokens', ctx.nonce()));
  const streamed = await client.messages.stream(anthropicParams(ctx, 'max-tokens', ctx.nonce())).finalMessage();
  const plain = await client.messages.create(anthropicParams(ctx, 'text', ctx.nonce()));
  const seen = [json.stop_reason, streamed.stop_reason, plain.stop_reason];
  const wanted = ['max_tokens', 'max_tokens', 'end_turn'];
  if (!isDeepStrictEqual(seen, wanted)) return fail(`stop_reason ${seen.join(', ')} ≠ sent ${wanted.join(', ')}`);
  return pass('max_tokens (JSON, stream) and end_turn arrive as sent');
}

export const anthropicMessageChecks: Check[] = [
  {
    id: 'thinking-json',
    title: 'thinking signature intact (JSON)',
    client: 'Anthropic SDK',
    run: (ctx) => thinking(ctx, false),
  },
  {
    id: 'thinking-stream',
    title: 'thinking signature intact (stream)',
    client: 'Anthropic SDK',
    run: (ctx) => thinking(ctx, true),
  },
  {
    id: 'tool-fragments-anthropic',
    title: 'tool_use input rebuilt from fragments',
    client: 'Anthropic SDK',
    run: toolFragments,
  },
  { id: 'usage-stream-anthropic', title: 'streaming usage reported', client: 'Anthropic SDK', run: streamUsage },
  { id: 'stop-reasons-anthropic', title: 'stop reasons kept', client: 'Anthropic SDK', run: stopReasons },
];
