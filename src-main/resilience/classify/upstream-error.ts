/** The machine part of an error body (`error.code`, `error.type`), safe to show any rule. */
export interface StructuredError {
  code: string | null;
  type: string | null;
}

/** An upstream error body read once: what signals search, what a person reads, what rules key on. */
export interface UpstreamErrorText {
  /** Lower-cased search text: the body plus its decoded message; bounded so patterns stay cheap. */
  haystack: string;
  /** The human message when the body had one, else the body itself (not yet shortened or masked). */
  message: string;
  structured: StructuredError | null;
}

/** Error bodies worth reading are short; a 100 kB HTML error page is searched only at its start. */
const MAX_HAYSTACK_CHARS = 16_384;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** Anthropic `{type:"error",error:{type,message}}`, OpenAI `{error:{message,type,code}}`, and flat variants. */
function readJson(body: Json): { message: string | null; structured: StructuredError } {
  const inner = isObject(body.error) ? body.error : body;
  const message =
    asText(inner.message) ?? asText(body.message) ?? asText(body.error) ?? asText(body.detail) ?? asText(inner.msg);
  const code = asText(inner.code) ?? asText(body.code);
  const type = asText(inner.type) ?? (inner === body ? null : asText(body.type));
  return { message, structured: { code, type: type === 'error' ? null : type } };
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads an upstream error body; a JSON body's message is decoded so `\u`-escaped text still matches. */
export function readUpstreamError(bodyText: string): UpstreamErrorText {
  const body = bodyText.slice(0, MAX_HAYSTACK_CHARS);
  const parsed = parseJson(bodyText.length > MAX_HAYSTACK_CHARS ? '' : bodyText);
  const root = Array.isArray(parsed) ? (parsed[0] as unknown) : parsed;
  if (!isObject(root)) {
    return { haystack: body.toLowerCase(), message: body, structured: null };
  }
  const { message, structured } = readJson(root);
  // Re-serialising un-escapes non-ASCII, so markers like 额度不足 match however the body was encoded.
  const decoded = JSON.stringify(root);
  const haystack = `${message ?? ''} ${decoded === body.trim() ? '' : decoded} ${body}`.toLowerCase();
  return {
    haystack: haystack.slice(0, MAX_HAYSTACK_CHARS * 2),
    message: message ?? body,
    structured: structured.code === null && structured.type === null ? null : structured,
  };
}
