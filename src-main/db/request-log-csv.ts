import type { RequestAttempt, RequestLogEntry } from '../../src-shared/domain/request-log';
import { attemptsOf } from '../../src-shared/domain/request-log';

type Cell = string | number | boolean | null;

/** The export's columns, in order: what the dashboard shows, never a key or a body (names only). */
const COLUMNS: readonly [string, (e: RequestLogEntry) => Cell][] = [
  ['id', (e) => e.id],
  ['time_utc', (e) => new Date(e.ts).toISOString()],
  ['key', (e) => e.keyName],
  ['endpoint', (e) => e.endpoint],
  ['api_format', (e) => e.apiFormat],
  ['model', (e) => e.model],
  ['upstream_model', (e) => e.upstreamModel ?? null],
  ['connection', (e) => e.connection],
  ['status', (e) => e.status],
  ['error_code', (e) => e.errorCode],
  ['error_message', (e) => e.errorMessage ?? null],
  ['stream', (e) => e.stream],
  ['latency_ms', (e) => e.latencyMs],
  ['ttfb_ms', (e) => e.ttfbMs],
  ['input_tokens', (e) => e.inputTokens],
  ['output_tokens', (e) => e.outputTokens],
  ['cache_read_tokens', (e) => e.cacheReadTokens],
  ['cache_write_tokens', (e) => e.cacheWriteTokens],
  ['held_ms', (e) => e.heldMs ?? null],
  ['translated', (e) => e.translated ?? null],
  ['served_via', (e) => e.servedVia],
  ['session_pin', (e) => e.sessionPin],
  ['attempts', (e) => attemptsOf(e).map(describeAttempt).join('; ')],
];

/** "main 429 rate_limited 120ms retry-after=30": one attempt in a cell. */
export function describeAttempt(hop: RequestAttempt): string {
  const parts = [hop.connection, hop.status === null ? '-' : String(hop.status), hop.reason || '-'];
  if (hop.ms !== undefined) parts.push(`${hop.ms}ms`);
  for (const [name, value] of Object.entries(hop.headers ?? {})) parts.push(`${name}=${value}`);
  return parts.join(' ');
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. Text
 * a spreadsheet would run as a formula (= + - @, tab, CR first) gets a leading apostrophe: a
 * model name is whatever a client sent, and must not become a formula in someone's Excel.
 */
export function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as a CSV document with a header line, CRLF line ends (RFC 4180). */
export function requestLogCsv(entries: readonly RequestLogEntry[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const entry of entries) lines.push(COLUMNS.map(([, read]) => csvField(read(entry))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `leeway-activity-20250102-030405.csv`, in UTC, from the export's time. */
export function csvFilename(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `leeway-activity-${stamp}.csv`;
}
