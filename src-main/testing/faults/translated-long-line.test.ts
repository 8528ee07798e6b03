import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_EVENT_CAP } from '../../kernel/sse/sse-reader';
import { startLongLineRig, type Direction, type LongLineRig } from './long-line-rig';

/*
 * Issue 21 §2: a translator must hold an event whole to parse it, so what it may hold is capped
 * (SSE_EVENT_CAP). An upstream line past the cap, sent in 16 KiB pieces like a real socket, through
 * the real proxy: the client's stream ends with an error event in its own format naming the cause,
 * the activity row has an error code, the upstream request is cancelled, and the proxy goes on.
 * (The 32 MB line that must pass, and its timing, is in translated-long-line.timing.test.ts.)
 */
const OVER_BYTES = SSE_EVENT_CAP + 1024 * 1024;

let rig: LongLineRig;

beforeAll(async () => {
  rig = await startLongLineRig(1024, OVER_BYTES);
}, 60_000);

afterAll(async () => {
  await rig.stop();
});

/** The client stream's terminal event, as the start of one of its last lines. */
const OVER_CASES: { direction: Direction; model: string; error: string }[] = [
  { direction: 'anthropic->openai', model: 'gpt-over', error: 'event: error\ndata: {"type":"error"' },
  { direction: 'openai->anthropic', model: 'claude-over', error: 'data: {"error":{' },
  { direction: 'responses->openai', model: 'gpt-over', error: 'event: response.failed\n' },
];

describe('issue 21 §2: an SSE line past the translators’ cap', () => {
  for (const { direction, model, error } of OVER_CASES) {
    it(`issue 21 §2: ${direction}: ends the client's stream with an error event in its format naming the cause, logs an error code, and cancels the upstream`, async () => {
      const after = await rig.lastRowId();
      const endsBefore = rig.upstreamEnds().length;
      const got = await rig.bigStream(direction, 'over').done;

      expect(got.status).toBe(200);
      expect(got.tail).toContain(error);
      expect(got.tail).toContain(`an SSE event over ${SSE_EVENT_CAP / (1024 * 1024)} MiB`);
      const row = await rig.rowFor(model, after);
      expect(row).toMatchObject({ status: 200, errorCode: 'upstream_invalid_response' });
      // The upstream's answer was cut, not read to its end.
      await expect.poll(() => rig.upstreamEnds().slice(endsBefore)).toEqual([{ model, finished: false }]);
      // And the proxy still serves.
      expect((await rig.askSmall(direction)).status).toBe(200);
    }, 60_000);
  }
});

describe('issue 21 §2: an SSE line past the cap before anything was committed', () => {
  it("issue 21 §2: anthropic->openai: the answer is a malformed 200 (failover): with no other candidate, a 502 in the client's format naming the cause", async () => {
    const after = await rig.lastRowId();
    const endsBefore = rig.upstreamEnds().length;
    const got = await rig.bigStream('anthropic->openai', 'overfirst').done;

    expect(got.status).toBe(502);
    const body = JSON.parse(got.tail) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toContain(`answered 200 with an SSE event over ${SSE_EVENT_CAP / (1024 * 1024)} MiB`);
    const row = await rig.rowFor('gpt-overfirst', after);
    expect(row).toMatchObject({ errorCode: 'upstream_invalid_response' });
    await expect
      .poll(() => rig.upstreamEnds().slice(endsBefore))
      .toEqual([{ model: 'gpt-overfirst', finished: false }]);
  }, 60_000);
});
