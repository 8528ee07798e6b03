import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { median, smallLatenciesWhile, startLongLineRig, type Direction, type LongLineRig } from './long-line-rig';

/*
 * Issue 21 §2: one 32 MB SSE data line on a translated stream, sent by the upstream in 16 KiB pieces
 * like a real socket, through the real proxy. Before the fix the translators' SSE reader searched the
 * whole growing line on every chunk: 35-85 s for 32 MB, the event loop frozen for seconds at a time,
 * small requests beside it waiting tens of seconds (some reset). Now each byte is searched once.
 * A timing file (`npm test` runs it alone): the medians are the issue's bound, measured generously.
 */
const LINE_BYTES = 32 * 1024 * 1024;
/** A small request is due every this many ms while the big line flows (20+ of them at 32 KiB/ms). */
const SMALL_EVERY_MS = 40;

let rig: LongLineRig;
/** How long the same 32 MB line takes untranslated, through the same proxy and upstream. */
let passthroughMs = 0;

beforeAll(async () => {
  rig = await startLongLineRig(LINE_BYTES, 1024);
  await rig.askSmall('anthropic->anthropic');
  const started = performance.now();
  const plain = await rig.bigStream('anthropic->anthropic', 'big').done;
  passthroughMs = performance.now() - started;
  expect(plain.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await rig.stop();
});

/**
 * The client stream's terminal event, as the start of one of its last lines, and the output tokens
 * the activity row reads from the client's stream. A Responses stream's usage is in
 * `response.completed`, which repeats the whole 32 MB text: past the usage tap's 1 MiB line cap
 * (`proxy/usage-tap.ts`), so that row has none.
 */
const CASES: { direction: Direction; model: string; terminal: string; outputTokens: number | null }[] = [
  { direction: 'anthropic->openai', model: 'gpt-big', terminal: 'event: message_stop', outputTokens: 77 },
  { direction: 'openai->anthropic', model: 'claude-big', terminal: 'data: [DONE]', outputTokens: 77 },
  { direction: 'responses->openai', model: 'gpt-big', terminal: 'event: response.completed', outputTokens: null },
];

describe('issue 21 §2: a 32 MB SSE line on a translated stream', () => {
  for (const { direction, model, terminal, outputTokens } of CASES) {
    it(`issue 21 §2: ${direction}: the line arrives whole, within a bound proportional to passthrough, and small requests beside it stay under 100 ms median`, async () => {
      await rig.askSmall(direction); // warm: this direction's code paths are ready before anything is measured
      const after = await rig.lastRowId();
      const started = performance.now();
      const big = rig.bigStream(direction, 'big');
      const small = await smallLatenciesWhile(rig, direction, big.done, SMALL_EVERY_MS);
      const got = await big.done;
      const elapsed = performance.now() - started;

      expect(got.status).toBe(200);
      // The huge text delta, translated into the client's format, is one line of the client's stream.
      expect(got.longestLine).toBeGreaterThan(LINE_BYTES - 1024);
      // The stream ends with its terminal event (its name line, or [DONE], is one of the last two).
      expect(got.heads.slice(-2)).toContain(terminal);
      expect(small.failed).toBe(0);
      expect(small.ms.length).toBeGreaterThanOrEqual(10);
      // The bound, over the median: one parse of the line may delay a request or two.
      expect(median(small.ms)).toBeLessThan(100);
      // Translation parses and re-writes the line (a Responses stream repeats it five times): generous.
      expect(elapsed).toBeLessThan(5 * passthroughMs + 5_000);
      // The usage after the huge line is still read and logged.
      const row = await rig.rowFor(model, after);
      expect(row).toMatchObject({ status: 200, errorCode: null, outputTokens });
    }, 60_000);
  }
});
