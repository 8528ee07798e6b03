/**
 * Pure body transforms of the mangling gateway, one per way a gateway can break what the suite
 * checks: re-encoded signatures, a lost tool fragment, dropped keep-alives, lost usage, rewritten
 * stop reasons. Each touches only its item, so each check's failure is its own.
 */

export const MANGLES = [
  'signature',
  'fragments',
  'keepalive',
  'count-tokens',
  'models-redirect',
  'models-slow',
  'head',
  'beta',
  'errors',
  'sessions',
  'usage',
  'stop-reasons',
] as const;
export type Mangle = (typeof MANGLES)[number];

/** SSE frames, each with its blank-line terminator. */
function frames(body: string): string[] {
  return body.split(/(?<=\n\n)/);
}

function dataOf(frame: string): unknown {
  const line = frame.split('\n').find((l) => l.startsWith('data: '));
  try {
    return line === undefined ? null : (JSON.parse(line.slice(6)) as unknown);
  } catch {
    return null;
  }
}

/** Thinking signatures and reasoning's encrypted_content re-encoded as base64url, as a "normalising" gateway would. */
function signatures(body: string): string {
  return body.replace(/"(signature|encrypted_content)":"([^"]+)"/g, (_m, key: string, blob: string) => {
    const url = blob.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return `"${key}":"${url}"`;
  });
}

/** Whether a frame carries a piece of tool-call arguments (Messages, Chat Completions, Responses). */
function isFragment(frame: string): boolean {
  if (frame.includes('event: response.function_call_arguments.delta')) return true;
  if (/"partial_json":"[^"]/.test(frame)) return true;
  return /"tool_calls":\[\{"index":\d+,"function":\{"arguments":"[^"]/.test(frame);
}

/** The third argument fragment lost; a Responses stream's full-argument copies follow the loss. */
function fragments(body: string): string {
  let seen = 0;
  const all: string[] = [];
  const kept: string[] = [];
  const out: string[] = [];
  for (const frame of frames(body)) {
    const responsesDelta = frame.includes('event: response.function_call_arguments.delta');
    const delta = responsesDelta ? String((dataOf(frame) as { delta?: unknown } | null)?.delta ?? '') : '';
    if (responsesDelta) all.push(delta);
    if (isFragment(frame) && ++seen === 3) continue;
    if (responsesDelta) kept.push(delta);
    out.push(frame);
  }
  const text = out.join('');
  if (all.length === 0) return text;
  return text.split(JSON.stringify(all.join(''))).join(JSON.stringify(kept.join('')));
}

/** `event: ping` frames and `:` comment lines removed. */
function keepAlives(body: string): string {
  return frames(body)
    .map((frame) => frame.replace(/^:.*\n/gm, ''))
    .filter((frame) => !/^event: ping$/m.test(frame) && frame.trim() !== '')
    .join('');
}

/** Streamed usage lost: Anthropic's final output count zeroed, OpenAI's usage chunk dropped. */
function usage(body: string): string {
  return frames(body)
    .filter((frame) => !frame.includes('"choices":[]'))
    .join('')
    .replace(/("type":"message_delta".*"usage":\{"output_tokens":)\d+/g, '$10');
}

function stopReasons(body: string): string {
  return body
    .split('"stop_reason":"max_tokens"')
    .join('"stop_reason":"end_turn"')
    .split('"finish_reason":"length"')
    .join('"finish_reason":"stop"');
}

/** A successful upstream body as the mangling gateway hands it on. */
export function mangleBody(body: string, mangles: ReadonlySet<Mangle>): string {
  let out = body;
  if (mangles.has('signature')) out = signatures(out);
  if (mangles.has('fragments')) out = fragments(out);
  if (mangles.has('keepalive')) out = keepAlives(out);
  if (mangles.has('usage')) out = usage(out);
  if (mangles.has('stop-reasons')) out = stopReasons(out);
  return out;
}
