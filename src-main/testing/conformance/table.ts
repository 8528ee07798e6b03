/** The table the suite prints: Markdown, so a run's output pastes into a README as it is. */
import type { Row } from './checks/types';

const HEADERS = ['check', 'client', 'result', 'evidence'] as const;

/** `|` inside a cell would split it. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function renderTable(rows: readonly Row[]): string {
  const lines = rows.map((r) => [r.title, r.client, r.result, r.evidence].map(cell));
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const format = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [format(HEADERS), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n');
}

export function summarize(rows: readonly Row[], ms: number): string {
  const count = (result: Row['result']): number => rows.filter((r) => r.result === result).length;
  return `${count('pass')} pass, ${count('fail')} fail, ${count('n-a')} n-a in ${(ms / 1000).toFixed(1)} s`;
}
