import type { DiffLine } from '../../../src-shared/contract/methods';

const MARK: Record<DiffLine['kind'], string> = { same: ' ', added: '+', removed: '-' };

/** A change as a unified-diff-like block: every line, marked and coloured (setup.css). */
export function DiffView({ lines, label }: { lines: DiffLine[]; label: string }) {
  return (
    <pre className="settings-diff" aria-label={label}>
      {lines.map((l, i) => (
        <span key={i} className={`diff-${l.kind}`}>
          {MARK[l.kind]} {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
