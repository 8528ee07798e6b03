import type { AppError } from '../../src-shared/contract/errors';
import type { Bridge } from './bridges';
import { parseObject } from './json-narrow';
import type { Json } from './translate-types';

export type BridgedRequest =
  | {
      ok: true;
      body: Buffer;
      /** The client-side body of each hop, in hop order: each answer translator is given the request it answers. */
      requests: Json[];
      dropped: string[];
    }
  | { ok: false; error: AppError };

/**
 * The client's body in the upstream's format: parsed once, run through the bridge's hops,
 * serialised once. A field that cannot be carried without changing the request's meaning is a
 * 400 naming it (the next candidate, of the client's own format, may still serve).
 */
export function bridgeRequest(
  raw: Buffer,
  bridge: Bridge,
  model: string,
  reasoning: boolean,
  /** A Gemini client's stream, said by its URL (RequestOptions.stream). */
  stream?: boolean,
): BridgedRequest {
  const first = parseObject(raw.toString('utf8'));
  if (!first) return { ok: false, error: { code: 'invalid_json', message: 'The request body is not valid JSON' } };
  const requests: Json[] = [];
  const dropped: string[] = [];
  let body = first;
  for (let i = 0; i < bridge.hops.length; i++) {
    const hop = bridge.hops[i];
    if (!hop) continue;
    requests.push(body);
    // Inner hops carry reasoning on (the last hop decides what the upstream really takes).
    const last = i === bridge.hops.length - 1;
    const out = hop.request(body, {
      model,
      reasoning: last ? reasoning : true,
      ...(stream === undefined ? {} : { stream }),
    });
    if (!out.ok) {
      const { field, message } = out.refusal;
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          status: 400,
          message: `${field}: ${message} (cannot be translated ${bridge.label.replace('->', ' → ')})`,
          details: { field, translation: bridge.label },
        },
      };
    }
    dropped.push(...out.dropped);
    body = out.body;
  }
  return { ok: true, body: Buffer.from(JSON.stringify(body), 'utf8'), requests, dropped };
}
