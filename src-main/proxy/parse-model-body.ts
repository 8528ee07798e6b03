import { fail, ok, type Result } from '../../src-shared/contract/errors';

export interface ModelBody {
  json: Record<string, unknown>;
  model: string;
  stream: boolean;
}

/** The few fields routing needs; the rest of the body passes upstream untouched. */
export function parseModelBody(raw: Buffer): Result<ModelBody> {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return fail('invalid_json', 'The request body is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail('invalid_input', 'The request body must be a JSON object', { status: 400 });
  }
  const body = json as Record<string, unknown>;
  if (typeof body.model !== 'string' || body.model.trim().length === 0) {
    return fail('invalid_input', 'model: is required (a model id, a combo name or connection/model)', { status: 400 });
  }
  return ok({ json: body, model: body.model.trim(), stream: body.stream === true });
}

/** The body to send a target: the original bytes unless the model id must change. */
export function bodyForModel(raw: Buffer, parsed: ModelBody, upstreamModel: string): Buffer {
  if (upstreamModel === parsed.model && parsed.json.model === parsed.model) return raw;
  return Buffer.from(JSON.stringify({ ...parsed.json, model: upstreamModel }));
}
