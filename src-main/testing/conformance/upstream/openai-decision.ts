/**
 * Chat Completions and Responses answers per scenario, from the shared fake's builders: a tool call
 * (with a reasoning item carrying `encrypted_content` on Responses for the thinking scenario),
 * or text with the scenario's touches (finish reason `length`, keep-alive comments).
 */
import type { PlanContext, ResponsePlan } from '../../fake-upstream-errors';
import { field } from '../../fake-upstream-plans';
import { okPlan, successHeaders } from '../../fake-upstream-responses';
import { responsesApiPlan } from '../../fake-upstream-responses-api';
import { toolCallPlan } from '../../fake-upstream-tools';
import { answerText, FRAGMENTS, USAGE, wantsTool, type Decision, type Request } from './answer-kit';
import type { Marker } from './markers';
import { opaqueBlob } from './thinking';
import { chooseTool, offeredTools, type ToolChoice } from './tool-inputs';

/** The plan with `from` replaced in its body; a JSON body's content-length follows. */
function replaceAll(plan: ResponsePlan, from: string, to: string): ResponsePlan {
  const chunks = plan.chunks.map((c) => c.split(from).join(to));
  if (plan.streaming) return { ...plan, chunks };
  const length = String(chunks.reduce((n, c) => n + Buffer.byteLength(c), 0));
  return { ...plan, chunks, headers: { ...plan.headers, 'content-length': length } };
}

/** A Responses tool call preceded by reasoning, as reasoning models answer codex. */
function reasoningToolCall(ctx: PlanContext, req: Request, marker: Marker, tool: ToolChoice): Decision {
  const encrypted = opaqueBlob(`reasoning:${marker.nonce}`, 480);
  const model = field(req.json, 'model');
  const answer = {
    model: typeof model === 'string' ? model : 'gpt-conformance',
    text: null,
    deltas: [],
    calls: [tool],
    fragments: FRAGMENTS,
    input: USAGE.input,
    output: USAGE.output,
    reasoning: { id: `rs_conformance_${marker.nonce}`, summary: 'Checked the request.', encryptedContent: encrypted },
  };
  return {
    plan: responsesApiPlan(ctx, req, answer, successHeaders(ctx)),
    sent: { tool, reasoning: encrypted, usage: USAGE },
  };
}

export function openaiDecision(ctx: PlanContext, path: string, req: Request, marker: Marker): Decision {
  if (wantsTool(marker, req.json)) {
    const tool = chooseTool(offeredTools(req.json), marker.nonce);
    if (marker.scenario === 'thinking-tool' && path === '/v1/responses')
      return reasoningToolCall(ctx, req, marker, tool);
    const plan = toolCallPlan(ctx, req, path, {
      kind: 'tool-call',
      calls: [{ name: tool.name, input: tool.input }],
      fragments: FRAGMENTS,
      usage: USAGE,
    });
    return { plan, sent: { tool, usage: USAGE } };
  }
  const text = answerText(marker);
  let plan = okPlan(ctx, req, path, { kind: 'ok', text, usage: USAGE, deltas: 6 });
  if (marker.scenario === 'max-tokens') plan = replaceAll(plan, '"finish_reason":"stop"', '"finish_reason":"length"');
  if (marker.scenario === 'keepalive' && plan.streaming)
    plan = { ...plan, chunks: plan.chunks.flatMap((c) => [c, ': keep-alive\n\n']) };
  return { plan, sent: { text, usage: USAGE } };
}
