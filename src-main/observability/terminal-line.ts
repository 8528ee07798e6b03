/** pino's numeric levels as the terminal shows them; `info` (30) carries no tag, being the usual line. */
const LEVEL_TAGS: Readonly<Record<number, string>> = {
  10: 'TRACE ',
  20: 'DEBUG ',
  30: '',
  40: 'WARN ',
  50: 'ERROR ',
  60: 'FATAL ',
};

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** The last second formatted: lines come many to a second, and only the milliseconds differ within one. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `HH:MM:SS.mmm` in local time: the terminal is read by a person next to the clock. `HH:MM:SS.` is
 * kept for the second it belongs to (a local-time offset only changes on a second boundary).
 */
export function clockTime(ms: number): string {
  const t = Math.trunc(ms); // what a Date keeps of a fractional time
  const second = Math.floor(t / 1000);
  if (second !== cachedSecond) {
    const d = new Date(t);
    if (Number.isNaN(d.getTime())) return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.NaN`;
    cachedSecond = second;
    cachedPrefix = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.`;
  }
  return cachedPrefix + three(t - second * 1000);
}

const LEVEL_AT = '{"level":';
const TIME_AT = ',"time":';
const MSG = ',"msg":"';

/** Where the run of digits starting at `from` ends. */
function digitsEnd(json: string, from: number): number {
  let end = from;
  while (end < json.length && json.charCodeAt(end) >= 48 && json.charCodeAt(end) <= 57) end++;
  return end;
}

/** The digits from `from` to `end` as a number, read without a match or a slice. */
function digitsValue(json: string, from: number, end: number): number {
  let value = 0;
  for (let i = from; i < end; i++) value = value * 10 + (json.charCodeAt(i) - 48);
  return value;
}

/** Whether JSON text between two quotes reads as itself: no escape, no quote, no control character. */
function isPlainJsonText(json: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = json.charCodeAt(i);
    if (c === 92 || c === 34 || c < 32) return false;
  }
  return true;
}

/**
 * pino writes level and time first and msg last: read those three without parsing the whole line
 * (nor, for a message without escapes, even the message: it is the text between its quotes).
 */
function quickParts(json: string): { level: number; time: number; msg: string } | null {
  if (!json.startsWith(LEVEL_AT)) return null;
  const levelEnd = digitsEnd(json, LEVEL_AT.length);
  const timeAt = levelEnd + TIME_AT.length;
  const timeEnd = digitsEnd(json, timeAt);
  const at = json.lastIndexOf(MSG);
  const end = json.lastIndexOf('}');
  if (levelEnd === LEVEL_AT.length || !json.startsWith(TIME_AT, levelEnd) || timeEnd === timeAt) return null;
  if (at < 0 || end < at) return null;
  const level = digitsValue(json, LEVEL_AT.length, levelEnd);
  const time = digitsValue(json, timeAt, timeEnd);
  const start = at + MSG.length;
  const close = end - 1;
  if (close >= start && json.charCodeAt(close) === 34 && isPlainJsonText(json, start, close))
    return { level, time, msg: json.slice(start, close) };
  try {
    const msg: unknown = JSON.parse(json.slice(start - 1, end));
    return typeof msg === 'string' ? { level, time, msg } : null;
  } catch {
    return null;
  }
}

/**
 * One JSON log line (pino's) as the terminal shows it: time, a level tag unless `info`, the
 * message; the structured fields stay in the file. A line that is not pino JSON passes as it is.
 */
export function formatTerminalLine(json: string): string {
  const quick = quickParts(json);
  if (quick) return `${clockTime(quick.time)} ${LEVEL_TAGS[quick.level] ?? ''}${quick.msg}\n`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  if (typeof parsed !== 'object' || parsed === null) return `${json.trimEnd()}\n`;
  const record = parsed as { level?: unknown; time?: unknown; msg?: unknown };
  const time = typeof record.time === 'number' ? record.time : Date.now();
  const tag = typeof record.level === 'number' ? (LEVEL_TAGS[record.level] ?? '') : '';
  const msg = typeof record.msg === 'string' ? record.msg : '';
  return `${clockTime(time)} ${tag}${msg}\n`;
}
