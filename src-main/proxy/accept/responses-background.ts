/** ROUTE-3: what the answer says when a `background: true` Responses request is served synchronously. */
export const BACKGROUND_WARNING =
  'background responses are not kept by Leeway; this one was served synchronously (ROUTE-3)';

const MARK = Buffer.from('"background"');

/**
 * A Responses body asking for `background: true`, rewritten to run in the foreground: Leeway
 * keeps no response store to poll (GET /v1/responses/{id}), so the client gets the answer on this
 * connection instead of a queued id it could never fetch. Null when the body does not ask for it
 * (the common case costs one byte search).
 */
export function foregroundBody(body: Buffer): Buffer | null {
  if (body.indexOf(MARK) === -1) return null;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null; // parseModelBody answers the malformed body
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (!('background' in value) || value.background !== true) return null;
  return Buffer.from(JSON.stringify({ ...value, background: false }), 'utf8');
}
