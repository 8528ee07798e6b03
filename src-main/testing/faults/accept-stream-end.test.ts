/**
 * Issue 21 §3, the accept layer's fault suite: a body that ends in a bare value (`"stream":1}`)
 * reached past the end of the buffer in the body scanner; small and >32 KB bodies, through the
 * real proxy on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_PARSE_MAX_BYTES } from '../../proxy/accept/parse-model-body';
import {
  anthropicHeaders,
  newestRow,
  openaiHeaders,
  startAcceptBench,
  stopAcceptBench,
  type AcceptBench,
} from './accept-harness';

let b: AcceptBench;
beforeAll(async () => (b = await startAcceptBench()));
afterAll(() => stopAcceptBench(b));

/** A body whose text ends in `"stream":<value>}`, padded past the full-parse limit when `large`. */
function bodyEndingIn(model: string, value: string, large: boolean): string {
  const system = large ? 'x'.repeat(FULL_PARSE_MAX_BYTES + 1024) : 'short';
  return `{"model":"${model}","max_tokens":8,"system":"${system}","messages":[{"role":"user","content":"hi"}],"stream":${value}}`;
}

describe('issue 21 §3: the body scanner reads a value at the very end of a body', () => {
  for (const large of [false, true]) {
    const size = large ? 'a >32 KB body' : 'a small body';
    for (const value of ['1', '0', '12']) {
      it(`issue 21 §3: "stream":${value} at the end of ${size} → 400 invalid_request_error in Anthropic format, logged as such`, async () => {
        const before = b.anthropic.requests.length;
        const res = await fetch(`${b.h.url}/v1/messages`, {
          method: 'POST',
          headers: anthropicHeaders(b.h.key),
          body: bodyEndingIn('main', value, large),
        });
        expect(res.status).toBe(400);
        expect(res.headers.get('x-should-retry')).toBe('false');
        const json = (await res.json()) as { error: { type: string; message: string } };
        expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
        expect(json.error.message).toContain('stream');
        expect(await newestRow(b.h)).toMatchObject({ status: 400, errorCode: 'invalid_input' });
        expect(b.anthropic.requests.length).toBe(before);
      });
    }
    it(`issue 21 §3: "stream":1 at the end of ${size} on Chat Completions → 400 in OpenAI format`, async () => {
      const res = await fetch(`${b.h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: openaiHeaders(b.h.key),
        body: bodyEndingIn('chat', '1', large),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_input' } });
    });
    for (const value of ['false', 'null', 'true']) {
      it(`issue 21 §3: "stream":${value} at the end of ${size} through a combo is served`, async () => {
        const res = await fetch(`${b.h.url}/v1/messages`, {
          method: 'POST',
          headers: anthropicHeaders(b.h.key),
          body: bodyEndingIn('main', value, large),
        });
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).toContain(value === 'true' ? 'message_stop' : '"type":"message"');
        expect(JSON.parse(b.anthropic.requests.at(-1)?.body ?? '{}')).toMatchObject({ model: 'claude-sonnet-4-5' });
      });
    }
  }

  it('issue 21 §3: a budget at the very end of a large body (`"max_tokens":8}`) is served', async () => {
    const body = `{"model":"main","system":"${'y'.repeat(FULL_PARSE_MAX_BYTES)}","messages":[{"role":"user","content":"hi"}],"max_tokens":8}`;
    const res = await fetch(`${b.h.url}/v1/messages`, { method: 'POST', headers: anthropicHeaders(b.h.key), body });
    expect(res.status).toBe(200);
    await res.text();
  });
});
