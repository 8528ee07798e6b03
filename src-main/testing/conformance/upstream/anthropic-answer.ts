/**
 * Anthropic Messages answers built from a list of content blocks, as one JSON Message or as its SSE
 * stream: thinking blocks (signature_delta), text (text_delta), tool_use (input_json_delta cut at
 * odd places), with the stop reason and usage the scenario names; keep-alive frames optional.
 */
import { jsonPlan, splitOddly, ssePlan } from '../../fake-upstream-plans';
import type { ResponsePlan } from '../../fake-upstream-errors';
import { anthropicEvent, splitText } from '../../sse-frames';
import { thinkingContent, thinkingFrames, type ThinkingBlocks } from './thinking';

export type AnthropicBlock =
  | { type: 'thinking'; blocks: ThinkingBlocks }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicAnswer {
  id: string;
  model: string;
  blocks: AnthropicBlock[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens';
  usage: { input: number; output: number };
  /** Tool input fragments per tool_use block (streamed). */
  fragments: number;
}

function usageOf(input: number, output: number): object {
  return { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output };
}

function contentOf(block: AnthropicBlock): object[] {
  switch (block.type) {
    case 'thinking':
      return thinkingContent(block.blocks);
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
  }
}

/** The whole Message as JSON. */
export function anthropicJson(answer: AnthropicAnswer, headers: Record<string, string>): ResponsePlan {
  return jsonPlan(
    {
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: answer.blocks.flatMap(contentOf),
      stop_reason: answer.stopReason,
      stop_sequence: null,
      usage: usageOf(answer.usage.input, answer.usage.output),
    },
    headers,
  );
}

/** The frames of one block at `index`; returns them and the next free index. */
function blockFrames(block: AnthropicBlock, index: number, fragments: number): [string[], number] {
  if (block.type === 'thinking') return [thinkingFrames(block.blocks, index), index + 2];
  const delta = (d: object): string =>
    anthropicEvent('content_block_delta', { type: 'content_block_delta', index, delta: d });
  const start = (content: object): string =>
    anthropicEvent('content_block_start', { type: 'content_block_start', index, content_block: content });
  const stop = anthropicEvent('content_block_stop', { type: 'content_block_stop', index });
  if (block.type === 'text') {
    const deltas = splitText(block.text, 3).map((text) => delta({ type: 'text_delta', text }));
    return [[start({ type: 'text', text: '' }), ...deltas, stop], index + 1];
  }
  // The real API opens every tool_use block with an empty fragment.
  const pieces = ['', ...splitOddly(JSON.stringify(block.input), fragments)];
  const deltas = pieces.map((partial_json) => delta({ type: 'input_json_delta', partial_json }));
  return [[start({ type: 'tool_use', id: block.id, name: block.name, input: {} }), ...deltas, stop], index + 1];
}

/** The Message's SSE stream; `keepAlive` puts a ping and an SSE comment after every content frame. */
export function anthropicFrames(answer: AnthropicAnswer, keepAlive: boolean): string[] {
  const message = {
    id: answer.id,
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: usageOf(answer.usage.input, 1),
  };
  const content: string[] = [];
  let index = 0;
  for (const block of answer.blocks) {
    const [frames, next] = blockFrames(block, index, answer.fragments);
    content.push(...frames);
    index = next;
  }
  const beats = keepAlive ? [anthropicEvent('ping', { type: 'ping' }), ': keep-alive\n\n'] : [];
  return [
    anthropicEvent('message_start', { type: 'message_start', message }),
    anthropicEvent('ping', { type: 'ping' }),
    ...content.flatMap((frame) => [frame, ...beats]),
    anthropicEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: answer.stopReason, stop_sequence: null },
      usage: { output_tokens: answer.usage.output },
    }),
    anthropicEvent('message_stop', { type: 'message_stop' }),
  ];
}

export function anthropicPlan(
  answer: AnthropicAnswer,
  stream: boolean,
  keepAlive: boolean,
  headers: Record<string, string>,
): ResponsePlan {
  return stream ? ssePlan(anthropicFrames(answer, keepAlive), headers) : anthropicJson(answer, headers);
}
