/** Messages answers per scenario: thinking blocks, a tool call or text, the stop reason, keep-alives. */
import type { PlanContext } from '../../fake-upstream-errors';
import { field, wantsStream } from '../../fake-upstream-plans';
import { successHeaders } from '../../fake-upstream-responses';
import { anthropicPlan, type AnthropicBlock } from './anthropic-answer';
import { answerText, FRAGMENTS, USAGE, wantsTool, type Decision, type Request } from './answer-kit';
import type { Marker } from './markers';
import { thinkingBlocks } from './thinking';
import { chooseTool, offeredTools } from './tool-inputs';
import type { SentFacts } from './types';

export function anthropicDecision(ctx: PlanContext, req: Request, marker: Marker): Decision {
  const { scenario, nonce, followUp } = marker;
  const model = field(req.json, 'model');
  const blocks: AnthropicBlock[] = [];
  const sent: SentFacts = { usage: USAGE };
  let stopReason: 'end_turn' | 'tool_use' | 'max_tokens' = scenario === 'max-tokens' ? 'max_tokens' : 'end_turn';
  if ((scenario === 'thinking' || scenario === 'thinking-tool') && !followUp) {
    sent.thinking = thinkingBlocks(nonce);
    blocks.push({ type: 'thinking', blocks: sent.thinking });
  }
  if (wantsTool(marker, req.json)) {
    sent.tool = chooseTool(offeredTools(req.json), nonce);
    blocks.push({ type: 'tool_use', id: `toolu_conformance_${nonce}_${ctx.seq}`, ...sent.tool });
    stopReason = 'tool_use';
  } else {
    sent.text = answerText(marker);
    blocks.push({ type: 'text', text: sent.text });
  }
  const answer = {
    id: `msg_conformance_${nonce}_${ctx.seq}`,
    model: typeof model === 'string' ? model : 'claude-conformance',
    blocks,
    stopReason,
    usage: USAGE,
    fragments: FRAGMENTS,
  };
  // Claude Code's thinking turn gets pings and comments too: they must not break it.
  const keepAlive = scenario === 'keepalive' || scenario === 'thinking-tool';
  return { plan: anthropicPlan(answer, wantsStream(req), keepAlive, successHeaders(ctx)), sent };
}
