/** Longest piece of an upstream's own words kept inside a Leeway error message. */
const SUMMARY_CHARS = 500;
/** Only the start of a body is read for its summary: the words that matter come early. */
const SCAN_CHARS = 64 * 1024;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * An upstream error body as one readable line: HTML reduced to its text (a proxy's "502 Bad
 * Gateway nginx" page), whitespace collapsed, cut to a few hundred characters.
 */
export function summarizeUpstreamText(text: string, contentType: string | undefined): string {
  const head = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const html = (contentType?.includes('html') ?? false) || /^\s*<(!doctype|html|head|body)/i.test(head);
  const line = (html ? htmlText(head) : head).replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty body)';
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS)}…` : line;
}

/** Text outside tags, scripts and styles; one pass with indexOf, so hostile markup stays linear. */
function htmlText(html: string): string {
  const parts: string[] = [];
  const closing = /<\/(script|style)/gi;
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      parts.push(html.slice(at));
      break;
    }
    parts.push(html.slice(at, open), ' ');
    const close = html.indexOf('>', open);
    if (close === -1) break;
    if (!/^<(script|style)\b/i.test(html.slice(open, open + 8))) {
      at = close + 1;
      continue;
    }
    // A script's or style's body is code, not words: skip to its closing tag (searching forward only).
    closing.lastIndex = close;
    const end = closing.exec(html);
    if (!end) break;
    at = html.indexOf('>', end.index) + 1 || html.length;
  }
  return parts
    .join('')
    .replace(/&(#39|[a-z]+);/gi, (entity: string, name: string) => ENTITIES[name.toLowerCase()] ?? entity);
}
