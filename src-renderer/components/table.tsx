import type { ReactNode } from 'react';

/** A column heading: text, or its cell's class (`num` right-aligns) and tooltip too. */
export type Column = string | { label: ReactNode; className?: string; title?: string };

/** The heading of a column of row buttons: read out by screen readers, not shown. */
export const ACTIONS: Column = { label: <span className="visually-hidden">Actions</span> };

/** A data table: one heading row, then the rows the caller renders; `label` names it for assistive tech. */
export function Table({
  columns,
  label,
  className = 'table',
  children,
}: {
  columns: readonly Column[];
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={className} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column, i) =>
            typeof column === 'string' ? (
              <th key={i}>{column || null}</th>
            ) : (
              <th key={i} className={column.className} title={column.title}>
                {column.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
