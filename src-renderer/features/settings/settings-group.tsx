import type { ReactNode } from 'react';

interface Props {
  id: string;
  title: string;
  /** One line under the title, shown also while folded, so a folded group still says what it holds. */
  summary: string;
  open: boolean;
  onToggle(): void;
  children: ReactNode;
}

/** A foldable group of settings cards: a disclosure button as its heading, the cards under it. */
export function SettingsGroup({ id, title, summary, open, onToggle, children }: Props) {
  const bodyId = `settings-group-${id}`;
  return (
    <section className="settings-group" aria-labelledby={`${bodyId}-title`}>
      <h3 className="group-title" id={`${bodyId}-title`}>
        <button type="button" className="group-toggle" aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
          <span className="group-chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {title}
        </button>
      </h3>
      <p className="muted small group-summary">{summary}</p>
      <div id={bodyId} className="settings-stack" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
