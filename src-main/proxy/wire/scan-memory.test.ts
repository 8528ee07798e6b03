import { describe, expect, it } from 'vitest';
import { claudeCodeBody } from '../../../scripts/bench/claude-body';
import { scanBody } from './body-scan';
import { createScanMemory, REMEMBER_MIN_BYTES } from './scan-memory';

/** Small deterministic generator, so a failure names its seed. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const TRICKY = ['plain', 'a "quoted" word', 'back\\slash\\', 'brackets ] } [ {', '"signature":""', 'ünïcødé', ''];

function turn(next: () => number, i: number): unknown {
  const text = TRICKY[Math.floor(next() * TRICKY.length)] ?? '';
  if (next() < 0.2)
    return { role: 'assistant', content: [{ type: 'thinking', thinking: text, signature: next() < 0.5 ? '' : 'Eq' }] };
  return { role: i % 2 === 0 ? 'user' : 'assistant', content: `${text} ${'x'.repeat(Math.floor(next() * 900))}` };
}

function conversation(seed: number, turns: number, order: 'messages-first' | 'messages-last'): string[] {
  const next = rng(seed);
  const base = claudeCodeBody('claude-sonnet-4-6', next() < 0.5) as Record<string, unknown>;
  const messages: unknown[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push(turn(next, i));
    const { system, tools } = base;
    const body =
      order === 'messages-first'
        ? { model: 'claude-sonnet-4-6', messages, system, tools, max_tokens: 1000 + i, stream: next() < 0.5 }
        : { model: 'claude-sonnet-4-6', system, tools, max_tokens: 1000 + i, messages, stream: next() < 0.5 };
    bodies.push(JSON.stringify(body, null, next() < 0.3 ? 1 : undefined));
  }
  return bodies;
}

describe('scan memory: a remembered container is skipped only when its bytes say so (issue 9 perf)', () => {
  it('issue 9 perf: every body of growing conversations scans exactly as without memory', () => {
    const memory = createScanMemory();
    for (let seed = 1; seed <= 6; seed++) {
      const bodies = conversation(seed, 12, seed % 2 === 0 ? 'messages-first' : 'messages-last');
      for (const text of bodies) {
        const raw = Buffer.from(text);
        expect(scanBody(raw, memory), `seed ${seed}`).toEqual(scanBody(raw));
      }
    }
  });

  it('issue 9 perf: interleaved sessions, edits inside a remembered container and broken bodies all scan as without memory', () => {
    const memory = createScanMemory();
    const a = conversation(11, 6, 'messages-first');
    const b = conversation(12, 6, 'messages-last');
    const variants: string[] = [];
    for (let i = 0; i < a.length; i++) {
      const ai = a[i] ?? '';
      const bi = b[i] ?? '';
      variants.push(ai, bi);
      // One byte changed deep inside the tools (a remembered container): same length, other bytes.
      const at = ai.indexOf('"description"', ai.indexOf('"tools"')) + 3;
      variants.push(ai.slice(0, at) + 'X' + ai.slice(at + 1));
      // The same conversation with a thinking block gone unsigned in an old turn.
      variants.push(ai.replace('"signature":"Eq"', '"signature":""'));
      // Broken: a closing bracket dropped inside the messages, a body cut short, a quote unclosed.
      const close = ai.indexOf('}]', ai.indexOf('"messages"'));
      variants.push(ai.slice(0, close) + ai.slice(close + 1));
      variants.push(ai.slice(0, ai.length - 40));
      variants.push(ai.replace('"role"', '"role'));
    }
    for (const text of variants) {
      const raw = Buffer.from(text);
      expect(scanBody(raw, memory)).toEqual(scanBody(raw));
    }
  });

  it('issue 9 perf: an array that grew resumes after the remembered part; a same container is recalled whole', () => {
    const memory = createScanMemory();
    const items = Array.from({ length: 40 }, (_, i) => ({ role: 'user', content: `turn ${i} ${'y'.repeat(200)}` }));
    const first = Buffer.from(JSON.stringify({ model: 'm', messages: items.slice(0, 30) }));
    const second = Buffer.from(JSON.stringify({ model: 'm', messages: items }));
    expect(scanBody(first, memory)).toEqual(scanBody(first));
    const at = second.indexOf('[');
    const recall = memory.recall(second, '"messages"', at);
    expect(recall?.kind).toBe('grown');
    expect(scanBody(second, memory)).toEqual(scanBody(second));
    expect(memory.recall(second, '"messages"', at)?.kind).toBe('same');
    // Small containers are not worth remembering.
    const small = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(small.length).toBeLessThan(REMEMBER_MIN_BYTES);
    scanBody(small, memory);
    expect(memory.recall(small, '"messages"', small.indexOf('['))).toBeNull();
  });
});
