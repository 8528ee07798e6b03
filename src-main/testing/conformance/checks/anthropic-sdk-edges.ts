/**
 * Checks through the Anthropic SDK at the edges of `/v1/messages`: keep-alive frames, count_tokens,
 * model discovery in Anthropic's shape, `?beta=true`, and upstream errors relayed unchanged.
 */
import { APIError } from '@anthropic-ai/sdk';
import { isDeepStrictEqual } from 'node:util';
import { anthropicClient, anthropicParams } from './anthropic-sdk-messages';
import { compareBytes, errorTap } from './error-bytes';
import { listedModels } from './models';
import { errorText, sentFor } from './upstream-facts';
import { anthropicHeaders, compareKeepAlives, wire } from './wire';
import { clip, fail, pass, type Check, type Outcome, type SuiteContext } from './types';

async function keepAlive(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const message = await anthropicClient(ctx)
    .messages.stream(anthropicParams(ctx, 'keepalive', nonce))
    .finalMessage();
  const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const sentText = sentFor(ctx, nonce, 'text').value;
  if (text !== sentText) return fail(`the SDK read ${clip(text)} ≠ sent ${clip(sentText)}`);
  const raw = ctx.nonce();
  const body = JSON.stringify({ ...anthropicParams(ctx, 'keepalive', raw), stream: true });
  const got = await wire(`${ctx.url}/v1/messages`, {
    method: 'POST',
    headers: anthropicHeaders(ctx.key),
    body,
    timeoutMs: ctx.timeoutMs,
  });
  const sent = sentFor(ctx, raw, 'text').exchange.record.response?.body ?? '';
  const frames = compareKeepAlives(sent, got.body);
  return frames.ok ? pass(`the SDK read the text; ${frames.text}`) : fail(`the SDK read the text, but ${frames.text}`);
}

async function countTokens(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  const { messages, model } = anthropicParams(ctx, 'text', nonce);
  const counted = await anthropicClient(ctx).messages.countTokens({ model, messages });
  const asked = ctx.upstream.byNonce(nonce).find((e) => e.sent.countTokens !== undefined);
  if (asked === undefined) {
    if (Number.isInteger(counted.input_tokens) && counted.input_tokens > 0)
      return pass(`${counted.input_tokens} input tokens, estimated by the gateway (the upstream was not asked)`);
    return fail(`input_tokens ${clip(counted.input_tokens)} and the upstream was not asked`);
  }
  if (counted.input_tokens !== asked.sent.countTokens)
    return fail(`input_tokens ${counted.input_tokens} ≠ the upstream's ${asked.sent.countTokens}`);
  return pass(`the upstream's count (${counted.input_tokens}) reached the client`);
}

async function models(ctx: SuiteContext): Promise<Outcome> {
  const raw = await listedModels(ctx, 'anthropic');
  if (raw.problem) return fail(raw.problem);
  const ids: string[] = [];
  for await (const model of anthropicClient(ctx).models.list()) ids.push(model.id);
  if (!ids.includes(ctx.models.anthropic)) return fail(`the SDK listed ${clip(ids)}, not ${ctx.models.anthropic}`);
  return pass(`${raw.status} in ${raw.ms} ms, no redirect; ${ids.length} models incl. ${ctx.models.anthropic}`);
}

async function beta(ctx: SuiteContext): Promise<Outcome> {
  const nonce = ctx.nonce();
  // Claude Code's SDK asks for beta features as `POST /v1/messages?beta=true`; this SDK version
  // leaves the query out of beta.messages, so the request names it as Claude Code sends it.
  const message = await anthropicClient(ctx).messages.create(anthropicParams(ctx, 'text', nonce), {
    query: { beta: 'true' },
  });
  const { exchange, value } = sentFor(ctx, nonce, 'text');
  const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  if (text !== value) return fail(`answered ${clip(text)} ≠ sent ${clip(value)}`);
  if (!/[?&]beta=true(&|$)/.test(exchange.record.path))
    return fail(`accepted, but forwarded as ${exchange.record.path}`);
  return pass(`accepted; upstream saw POST ${exchange.record.path}`);
}

async function errorVerbatim(ctx: SuiteContext, scenario: 'error-4xx' | 'error-5xx'): Promise<Outcome> {
  const nonce = ctx.nonce();
  let caught: unknown = null;
  const tap = errorTap();
  try {
    await anthropicClient(ctx, tap).messages.create(anthropicParams(ctx, scenario, nonce));
  } catch (error) {
    caught = error;
  }
  const sent = sentFor(ctx, nonce, 'error').value;
  if (!(caught instanceof APIError)) return fail(caught === null ? 'the request succeeded' : errorText(caught));
  if (caught.status !== sent.status)
    return fail(`status ${caught.status} ≠ upstream ${sent.status}: ${clip(caught.error)}`);
  if (!isDeepStrictEqual(caught.error, JSON.parse(sent.body)))
    return fail(`body ${clip(caught.error)} ≠ sent ${clip(sent.body)}`);
  return pass(`${sent.status}, the upstream's body (${sent.body.length} B; ${compareBytes(tap.body(), sent.body)})`);
}

export const anthropicEdgeChecks: Check[] = [
  { id: 'keepalive-anthropic', title: 'ping / keep-alive passed', client: 'Anthropic SDK', run: keepAlive },
  { id: 'count-tokens', title: 'count_tokens', client: 'Anthropic SDK', run: countTokens },
  { id: 'models-anthropic', title: '/v1/models, Anthropic shape', client: 'Anthropic SDK', run: models },
  { id: 'beta-sdk', title: '?beta=true accepted and forwarded', client: 'Anthropic SDK', run: beta },
  {
    id: 'error-4xx-anthropic',
    title: 'error body verbatim (400)',
    client: 'Anthropic SDK',
    run: (ctx) => errorVerbatim(ctx, 'error-4xx'),
  },
  {
    id: 'error-5xx-anthropic',
    title: 'error body verbatim (529)',
    client: 'Anthropic SDK',
    run: (ctx) => errorVerbatim(ctx, 'error-5xx'),
    phase: 2,
  },
];
