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

/** `HH:MM:SS.mmm` in local time: the terminal is read by a person next to the clock. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${three(d.getMilliseconds())}`;
}

const HEAD = /^\{"level":(\d+),"time":(\d+)/;
const MSG = ',"msg":"';

/** pino writes level and time first and msg last: read those three without parsing the whole line. */
function quickParts(json: string): { level: number; time: number; msg: string } | null {
  const head = HEAD.exec(json);
  const at = json.lastIndexOf(MSG);
  const end = json.lastIndexOf('}');
  if (!head || at < 0 || end < at) return null;
  try {
    const msg: unknown = JSON.parse(json.slice(at + MSG.length - 1, end));
    return typeof msg === 'string' ? { level: Number(head[1]), time: Number(head[2]), msg } : null;
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
