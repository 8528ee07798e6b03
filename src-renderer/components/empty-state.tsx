import type { ReactNode } from 'react';

/** What an empty list means and the next step to fill it. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      <div className="empty-body">{children}</div>
    </div>
  );
}
