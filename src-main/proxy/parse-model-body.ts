import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { stripControlChars } from './quote-user-text';
import { replaceModel } from './replace-model';

export interface ModelBody {
  json: Record<string, unknown>;
  model: string;
  stream: boolean;
}

/** Longer than any real model id, combo or `connection/model`; past it the name is refused, not stored. */
export const MAX_MODEL_CHARS = 256;

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
  if (typeof body.model !== 'string') return missingModel();
  // Checked before any other work on it: the request log, errors and upstreams never see a huge name.
  if (body.model.length > MAX_MODEL_CHARS) {
    return fail('invalid_input', `model: is at most ${MAX_MODEL_CHARS} characters (got ${body.model.length})`, {
      status: 400,
    });
  }
  // Control characters could forge log lines; they are never part of a real model id.
  const model = stripControlChars(body.model).trim();
  if (model.length === 0) return missingModel();
  return ok({ json: body, model, stream: body.stream === true });
}

function missingModel(): Result<never> {
  return fail('invalid_input', 'model: is required (a model id, a combo name or connection/model)', { status: 400 });
}

/**
 * The body to send a target: the original bytes unless the model id must change; then only the
 * model's bytes are replaced (everything else, thinking signatures included, stays byte-exact).
 */
export function bodyForModel(raw: Buffer, parsed: ModelBody, upstreamModel: string): Buffer {
  if (upstreamModel === parsed.model && parsed.json.model === parsed.model) return raw;
  return replaceModel(raw, upstreamModel) ?? Buffer.from(JSON.stringify({ ...parsed.json, model: upstreamModel }));
}
