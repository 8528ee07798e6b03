/** Plain HTTP to the gateway for what SDKs hide: redirects, timing, keep-alive frames, HEAD. */

export interface WireAnswer {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}

/** One request, redirects not followed, cut after `timeoutMs`. */
export async function wire(url: string, init: RequestInit & { timeoutMs: number }): Promise<WireAnswer> {
  const started = performance.now();
  const { timeoutMs, ...rest } = init;
  const response = await fetch(url, { ...rest, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  const body = await response.text();
  return { status: response.status, headers: response.headers, body, ms: Math.round(performance.now() - started) };
}

/** The SSE keep-alive frames in a stream body: `event: ping` events and `:` comment lines. */
export function keepAlives(body: string): { pings: number; comments: number } {
  const lines = body.split(/\r?\n/);
  return {
    pings: lines.filter((line) => /^event:\s*ping\s*$/.test(line)).length,
    comments: lines.filter((line) => line.startsWith(':')).length,
  };
}

/** "3/3 pings, 8/8 comments" style evidence, and whether every frame arrived. */
export function compareKeepAlives(sent: string, got: string): { ok: boolean; text: string } {
  const want = keepAlives(sent);
  const have = keepAlives(got);
  const ok = have.pings >= want.pings && have.comments >= want.comments;
  const pings = want.pings > 0 ? `${have.pings}/${want.pings} pings, ` : '';
  return { ok, text: `${pings}${have.comments}/${want.comments} comments reached the client` };
}

export function anthropicHeaders(key: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' };
}

export function openaiHeaders(key: string): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${key}` };
}
