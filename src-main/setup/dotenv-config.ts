/**
 * A `.env` file as Gemini CLI and Qwen Code read it (dotenv): `NAME=value` lines. Leeway's names are
 * set in place (every line that defines them) or appended; every other line, comment and blank stays as it was.
 */
const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

function unquote(raw: string): string {
  const value = raw.trim();
  const quoted = /^(['"])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] ?? '') : value.replace(/\s+#.*$/, '');
}

/** The variables a `.env` text defines (a name given twice: the last one, as dotenv parses it). */
export function readDotenv(text: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (text ?? '').split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (m?.[1] !== undefined) out[m[1]] = unquote(m[2] ?? '');
  }
  return out;
}

/** The text with each entry set (in place where the name is defined, else appended at the end). */
export function setDotenv(text: string | null, entries: Readonly<Record<string, string>>): string {
  const lines = text === null || text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const seen = new Set<string>();
  const out = lines.map((line) => {
    const name = LINE.exec(line)?.[1];
    const value = name !== undefined && Object.prototype.hasOwnProperty.call(entries, name) ? entries[name] : undefined;
    if (name === undefined || value === undefined) return line;
    seen.add(name);
    return `${name}=${value}`;
  });
  for (const [name, value] of Object.entries(entries)) if (!seen.has(name)) out.push(`${name}=${value}`);
  return `${out.join('\n')}\n`;
}
