import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import { stripControlChars } from './quote-user-text';
import { budgetOf, replaceModel, scanBody, type Span, type StreamField } from '../wire/body-scan';
import { createScanMemory } from '../wire/scan-memory';
import { hasEmptySignature } from '../stages/unsigned-thinking';

export interface ModelBody {
  model: string;
  stream: boolean;
  /** The model exactly as the body spells it (before trimming), to know whether the bytes must change. */
  rawModel: string;
  /** Where the model's value sits in the body, when the scan found it (large bodies). */
  modelAt: Span | null;
  /**
   * The top-level answer budget (`max_tokens`, else `max_completion_tokens`, else `max_output_tokens`)
   * as a non-negative integer, or null: read in the same pass, so no stage has to search the body again.
   */
  maxTokens: number | null;
  /**
   * The body may hold thinking with an empty signature (`"signature": ""`, see unsigned-thinking.ts):
   * found in the same scan for large bodies, by one byte search for small ones, so the attempt does
   * not search a 70 KB body again for every Anthropic target.
   */
  emptySignature: boolean;
}

/** Longer than any real model id, combo or `connection/model`; past it the name is refused, not stored. */
export const MAX_MODEL_CHARS = 256;

/**
 * Bodies up to this size are validated by JSON.parse in full. Larger ones (Claude Code sends
 * ~70 KB every turn) are scanned for the top-level model and stream without building the object:
 * the parse and its garbage were the largest cost Leeway added per request. Their structure is
 * checked; a token-level error that slips through is refused by the upstream in the client's format.
 */
export const FULL_PARSE_MAX_BYTES = 32 * 1024;

/** The few fields routing needs; the rest of the body passes upstream untouched. */
export function parseModelBody(raw: Buffer): Result<ModelBody> {
  if (raw.length > FULL_PARSE_MAX_BYTES) return scanLarge(raw);
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
  const maxTokens =
    budgetOf(body.max_tokens) ?? budgetOf(body.max_completion_tokens) ?? budgetOf(body.max_output_tokens);
  return checked(body.model, streamFieldOf(body.stream), null, maxTokens, hasEmptySignature(raw));
}

/** The parsed `stream` as the scan classifies it, so both sizes of body are judged alike. */
function streamFieldOf(value: unknown): StreamField {
  if (value === undefined || value === null) return 'absent';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return 'not_boolean';
}

/** One per process: consecutive turns of a conversation repeat most of their bytes (scan-memory.ts). */
const scanMemory = createScanMemory();

function scanLarge(raw: Buffer): Result<ModelBody> {
  const scan = scanBody(raw, scanMemory);
  if (!scan.ok) return fail('invalid_json', 'The request body is not valid JSON');
  if (scan.model === null) return missingModel();
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8', scan.model.start, scan.model.end));
  } catch {
    return fail('invalid_json', 'The request body is not valid JSON');
  }
  return checked(value, scan.stream, scan.model, scan.maxTokens, scan.emptySignature);
}

function checked(
  value: unknown,
  stream: StreamField,
  modelAt: Span | null,
  maxTokens: number | null,
  emptySignature: boolean,
): Result<ModelBody> {
  if (typeof value !== 'string') return missingModel();
  // Checked before any other work on it: the request log, errors and upstreams never see a huge name.
  if (value.length > MAX_MODEL_CHARS) {
    return fail('invalid_input', `model: is at most ${MAX_MODEL_CHARS} characters (got ${value.length})`, {
      status: 400,
    });
  }
  // Control characters could forge log lines; they are never part of a real model id.
  const model = stripControlChars(value).trim();
  if (model.length === 0) return missingModel();
  // Issue 21 §3: whether the answer streams decides its deadlines and how it is relayed, so a value
  // an upstream might read either way (`"stream": 1`) is refused, as OpenAI refuses it.
  if (stream === 'not_boolean') {
    return fail('invalid_input', 'stream: must be true or false', { status: 400 });
  }
  return ok({ model, stream: stream === 'true', rawModel: value, modelAt, maxTokens, emptySignature });
}

function missingModel(): Result<never> {
  return fail('invalid_input', 'model: is required (a model id, a combo name or connection/model)', { status: 400 });
}

/**
 * The body to send a target: the original bytes unless the model id must change; then only the
 * model's bytes are replaced (everything else, thinking signatures included, stays byte-exact).
 */
export function bodyForModel(raw: Buffer, parsed: ModelBody, upstreamModel: string): Buffer {
  if (upstreamModel === parsed.rawModel) return raw;
  const replaced = parsed.modelAt ? replaceModel(raw, upstreamModel, parsed.modelAt) : replaceModel(raw, upstreamModel);
  // Unreachable for a body parseModelBody accepted (it has a top-level string model); kept total.
  return replaced ?? raw;
}
