/**
 * Extended-thinking answers in Anthropic's wire format: a `thinking` block whose `signature` the
 * client must send back byte for byte on its next turn, a `redacted_thinking` block (opaque `data`),
 * then text or a tool call. The signatures are base64 with `+`, `/` and `=`, which a gateway that
 * re-encodes or trims would change.
 */
import { createHash } from 'node:crypto';
import { anthropicEvent } from '../../sse-frames';

export interface ThinkingBlocks {
  thinking: string;
  signature: string;
  redacted: string;
}

/** Deterministic, realistic-looking opaque blobs for a nonce (`length` base64 characters). */
export function opaqueBlob(seed: string, length: number): string {
  let bytes = Buffer.alloc(0);
  for (let i = 0; bytes.length * 4 < length * 3 + 8; i++) {
    bytes = Buffer.concat([bytes, createHash('sha256').update(`${seed}:${i}`).digest()]);
  }
  // Guarantee the characters JSON encoders and URL-safe re-encoders treat specially.
  const body = bytes
    .toString('base64')
    .replace(/=+$/, '')
    .slice(0, length - 4);
  return `${body.slice(0, 10)}+/${body.slice(10)}==`;
}

export function thinkingBlocks(nonce: string): ThinkingBlocks {
  return {
    thinking: `The user asked for conformance check ${nonce}. Thinking "quoted" text, unicode ✓ and a \\ backslash.`,
    signature: opaqueBlob(`signature:${nonce}`, 344),
    redacted: opaqueBlob(`redacted:${nonce}`, 220),
  };
}

/** The content blocks of a JSON Message, thinking first. */
export function thinkingContent(blocks: ThinkingBlocks): object[] {
  return [
    { type: 'thinking', thinking: blocks.thinking, signature: blocks.signature },
    { type: 'redacted_thinking', data: blocks.redacted },
  ];
}

/**
 * The SSE frames of the two thinking blocks starting at `index`: thinking deltas, then one
 * `signature_delta` as the API sends it, then the redacted block whole in its start event.
 */
export function thinkingFrames(blocks: ThinkingBlocks, index: number): string[] {
  const half = Math.floor(blocks.thinking.length / 2);
  const delta = (i: number, d: object): string =>
    anthropicEvent('content_block_delta', { type: 'content_block_delta', index: i, delta: d });
  return [
    anthropicEvent('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    }),
    delta(index, { type: 'thinking_delta', thinking: blocks.thinking.slice(0, half) }),
    delta(index, { type: 'thinking_delta', thinking: blocks.thinking.slice(half) }),
    delta(index, { type: 'signature_delta', signature: blocks.signature }),
    anthropicEvent('content_block_stop', { type: 'content_block_stop', index }),
    anthropicEvent('content_block_start', {
      type: 'content_block_start',
      index: index + 1,
      content_block: { type: 'redacted_thinking', data: blocks.redacted },
    }),
    anthropicEvent('content_block_stop', { type: 'content_block_stop', index: index + 1 }),
  ];
}
