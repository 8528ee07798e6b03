import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';

/** Whether JSON.stringify would only wrap the text in quotes: no quote, backslash, control character or surrogate. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** A JSON string, exactly as JSON.stringify writes it; the usual plain name is quoted without a scan-and-copy. */
function str(value: string | null): string {
  if (value === null) return 'null';
  return isPlain(value) ? `"${value}"` : JSON.stringify(value);
}

/** A JSON number as pino writes one: a non-finite number is null. */
function num(value: number | null): string {
  return value === null || !Number.isFinite(value) ? 'null' : String(value);
}

/**
 * The request's JSON log line (issue 13 §1), byte for byte what pino wrote for
 * `logger.child({ event: 'request' }).info(fields, msg)` with `base: null` (request-json.test
 * compares them): level, time, the event binding, the flat fields in this order, msg last, one
 * line. Built as one string instead of pino's generic per-field serialisation, which was most of
 * a request's logging cost; JSON.stringify only for a value that needs escaping and the hops.
 */
export function requestJson(e: NewRequestLogEntry, msg: string, time: number): string {
  const failover = e.failover.length === 0 ? '[]' : JSON.stringify(e.failover);
  return (
    `{"level":30,"time":${time},"event":"request","keyName":${str(e.keyName)},"endpoint":${str(e.endpoint)}` +
    `,"model":${str(e.model)},"upstreamModel":${str(e.upstreamModel ?? null)},"connection":${str(e.connection)}` +
    `,"status":${num(e.status)},"ms":${num(e.latencyMs)},"ttfbMs":${num(e.ttfbMs)}` +
    `,"inputTokens":${num(e.inputTokens)},"outputTokens":${num(e.outputTokens)},"errorCode":${str(e.errorCode)}` +
    `,"failover":${failover},"translated":${str(e.translated ?? null)},"heldMs":${num(e.heldMs ?? null)}` +
    `,"queuedMs":${num(e.queuedMs ?? null)},"msg":${str(msg)}}\n`
  );
}
