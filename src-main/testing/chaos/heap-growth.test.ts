import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/*
 * TEST-2 heap growth (OOM guard): about 500 streams through each of Leeway's SSE stream paths —
 * the pass-through relay and the three stream translators — each compared with the heap after a
 * warm-up, both taken after a full GC. Needs --expose-gc and skips itself without it (TEST-4):
 * `NODE_OPTIONS=--expose-gc npx vitest run src-main/testing/chaos/heap-growth.test.ts`.
 * Proxy, fakes and client share this process, so the numbers are an upper bound for the proxy.
 */

const gcFn: unknown = Reflect.get(globalThis, 'gc');
const gc = typeof gcFn === 'function' ? () => void gcFn() : null;

const STREAMS = Number.parseInt(process.env.HEAP_STREAMS ?? '', 10) || 500;
const WARM_UP = 50;
const CONCURRENCY = 10;
/** Retained heap past this after 500 streams of one path is a leak (≈16 KB a stream), not noise. */
const MAX_HEAP_GROWTH_BYTES = 8 * 1024 * 1024;

const CLAUDE = 'claude-heap';
const GPT = 'gpt-heap';

interface StreamPath {
  name: string;
  path: string;
  body: Record<string, unknown>;
  /** The last thing a complete stream of this format says. */
  end: string;
  /** Which fake must see the requests (a translated path goes to the other format's upstream). */
  upstream: 'anthropic' | 'openai';
}

const user = [{ role: 'user', content: 'hi' }];
const PATHS: StreamPath[] = [
  {
    name: 'relay (Messages → Anthropic)',
    path: '/v1/messages',
    body: { model: CLAUDE, max_tokens: 16, stream: true, messages: user },
    end: 'event: message_stop',
    upstream: 'anthropic',
  },
  {
    name: 'Messages stream from Chat Completions',
    path: '/v1/messages',
    body: { model: GPT, max_tokens: 16, stream: true, messages: user },
    end: 'event: message_stop',
    upstream: 'openai',
  },
  {
    name: 'Chat Completions stream from Messages',
    path: '/v1/chat/completions',
    body: { model: CLAUDE, max_tokens: 16, stream: true, messages: user },
    end: 'data: [DONE]',
    upstream: 'anthropic',
  },
  {
    name: 'Responses stream from Chat Completions',
    path: '/v1/responses',
    body: { model: GPT, max_output_tokens: 16, stream: true, input: 'hi' },
    end: 'response.completed',
    upstream: 'openai',
  },
];

let anthropic: FakeUpstream | null = null;
let openai: FakeUpstream | null = null;
let leeway: RunningLeeway | null = null;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

describe.runIf(gc !== null)('heap growth per SSE stream path (skipped without --expose-gc)', () => {
  beforeAll(async () => {
    anthropic = await startFakeUpstream({ format: 'anthropic', name: 'heap-anthropic' });
    openai = await startFakeUpstream({ format: 'openai', name: 'heap-openai' });
    anthropic.setDefault({ kind: 'ok', deltas: 8 });
    openai.setDefault({ kind: 'ok', deltas: 8 });
    leeway = await startLeeway({
      connections: [
        anthropicConnection('heap-anthropic', anthropic.url, { models: [CLAUDE] }),
        openaiConnection('heap-openai', openai.url, { models: [GPT] }),
      ],
    });
  });
  afterAll(async () => {
    await leeway?.stop();
    await Promise.all([anthropic?.close(), openai?.close()]);
  });

  /** Runs `count` streams of one path, `CONCURRENCY` at a time; returns how many did not end properly. */
  async function run(h: RunningLeeway, p: StreamPath, count: number): Promise<number> {
    const headers = {
      'content-type': 'application/json',
      'x-api-key': h.key,
      authorization: `Bearer ${h.key}`,
      'anthropic-version': '2023-06-01',
    };
    const body = JSON.stringify(p.body);
    let next = 0;
    let bad = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        try {
          const res = await fetch(`${h.url}${p.path}`, { method: 'POST', headers, body });
          const text = await res.text();
          if (res.status !== 200 || !text.includes(p.end)) bad++;
        } catch {
          bad++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return bad;
  }

  /** Heap in use after a full collection, with the fakes' own records of what they saw dropped. */
  async function retainedHeap(): Promise<number> {
    anthropic?.requests.splice(0);
    openai?.requests.splice(0);
    // The request log writes its buffered rows on a one-second timer.
    await new Promise((r) => setTimeout(r, 1_100));
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed;
  }

  for (const p of PATHS) {
    it(
      `TEST-2: ${STREAMS} streams, ${p.name}: all complete and the heap stays under its ceiling`,
      { timeout: 120_000 },
      async () => {
        const h = leeway;
        if (!h) throw new Error('Leeway did not start');
        expect(await run(h, p, WARM_UP)).toBe(0);
        expect((p.upstream === 'anthropic' ? anthropic : openai)?.requests).toHaveLength(WARM_UP);
        const before = await retainedHeap();
        expect(await run(h, p, STREAMS)).toBe(0);
        const after = await retainedHeap();
        console.info(`TEST-2 ${p.name}: ${STREAMS} streams, heap used ${mb(before)} → ${mb(after)} MB`);
        expect(after - before).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
      },
    );
  }
});
