import type { ReactNode } from 'react';
import './section-header.css';

/** A tab's title with its main action beside it (e.g. "Add connection"). */
export function SectionHeader({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <header className="section-header">
      <h2 id={id}>{title}</h2>
      {children && <div className="section-actions">{children}</div>}
    </header>
  );
}
