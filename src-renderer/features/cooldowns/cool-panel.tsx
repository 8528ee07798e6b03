import type { ReactNode } from 'react';
import { Table, type Column } from '../../components/table';

/** One panel of the Cooldowns tab: its title and scope, then its table, or what an empty one means. */
export function CoolPanel({
  id,
  title,
  intro,
  empty,
  label,
  columns,
  notice,
  ready = true,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  /** Said instead of the table when there are no rows; null: show the table. */
  empty: string | null;
  /** A line above the table, e.g. why the last read failed. */
  notice?: ReactNode;
  /** False until the first answer: neither the table nor the empty line. */
  ready?: boolean;
  label: string;
  columns: readonly Column[];
  children: ReactNode;
}) {
  return (
    <section className="cool-panel" aria-labelledby={`${id}-title`}>
      <header className="cool-panel-header">
        <h3 id={`${id}-title`}>{title}</h3>
        <span className="muted small">{intro}</span>
      </header>
      {notice}
      {!ready ? null : empty !== null ? (
        <p className="panel-empty">{empty}</p>
      ) : (
        <Table label={label} columns={columns}>
          {children}
        </Table>
      )}
    </section>
  );
}
