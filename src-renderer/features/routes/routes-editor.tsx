import { useState, type FormEvent } from 'react';
import type { Route } from '../../../src-shared/domain/route';
import type { RouteKnowledge } from '../../../src-shared/domain/route-targets';
import { ErrorNotice } from '../../components/error-notice';
import { moveRow, useFocusAfterRender } from '../../components/use-focus-after-render';
import { useFormErrors } from '../../components/use-form-errors';
import { useAction } from '../../resources/action';
import {
  buildRoutes,
  CLAUDE_CODE_RECIPE,
  draftsFrom,
  newRoute,
  routeErrorsFrom,
  type RouteDraft,
  type RouteErrors,
} from './routes-form';
import { RouteRow } from './route-row';

/** The ordered list as an editable form; nothing is stored until Save, and then the whole list at once. */
export function RoutesEditor({
  stored,
  known,
  suggestions,
  justSaved,
  onSaved,
  onEdited,
}: {
  stored: readonly Route[];
  known: RouteKnowledge;
  suggestions: readonly string[];
  justSaved: boolean;
  onSaved: (routes: Route[]) => void;
  onEdited: () => void;
}) {
  const replace = useAction('routes.replace');
  const [drafts, setDrafts] = useState<RouteDraft[]>(() => draftsFrom(stored));
  const { errors, setErrors, refuse, formRef } = useFormErrors<RouteErrors>({});
  const busy = replace.pending;
  const focusNext = useFocusAfterRender();
  const dirty = JSON.stringify(drafts.map(({ match, to }) => ({ match, to }))) !== JSON.stringify(stored);

  const change = (next: RouteDraft[]): void => {
    setDrafts(next);
    setErrors({});
    onEdited();
  };
  const move = (index: number, by: -1 | 1): void => {
    const moved = moveRow(drafts, index, by, (row) => `route-${row.key}`);
    if (!moved) return;
    focusNext(moved.focus);
    change(moved.rows);
  };
  const remove = (index: number): void => {
    const neighbour = drafts[index + 1] ?? drafts[index - 1];
    focusNext(neighbour ? [`route-${neighbour.key}-match`] : ['route-add']);
    change(drafts.filter((_, i) => i !== index));
  };
  const add = (): void => {
    const row = newRoute();
    focusNext([`route-${row.key}-match`]);
    change([...drafts, row]);
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildRoutes(drafts, known);
    if (!built.ok) return refuse(built.errors);
    const result = await replace.run({ routes: built.routes });
    if (!result.ok) return refuse(routeErrorsFrom(result.error));
    onSaved(result.value);
  };

  return (
    <form ref={formRef} noValidate onSubmit={(e) => void submit(e)} aria-label="Routes">
      {drafts.length === 0 ? (
        <div className="empty-state routes-empty">
          <p>No routes: a model name goes to a combo or connection of that name, else to any connection serving it.</p>
          <button type="button" className="button" onClick={() => change(draftsFrom(CLAUDE_CODE_RECIPE))}>
            Start from the Claude Code recipe
          </button>
        </div>
      ) : (
        <ol className="routes-list">
          {drafts.map((draft, i) => (
            <RouteRow
              key={draft.key}
              draft={draft}
              index={i}
              count={drafts.length}
              errors={errors}
              suggestionsId="route-targets"
              onChange={(patch) => change(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)))}
              onMove={(by) => move(i, by)}
              onRemove={() => remove(i)}
            />
          ))}
        </ol>
      )}
      <datalist id="route-targets">
        {[...new Set(suggestions)].map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <ErrorNotice message={errors.form} />
      <div className="routes-actions">
        <button type="button" id="route-add" className="button" onClick={add}>
          Add route
        </button>
        <button type="submit" className="button primary" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save routes'}
        </button>
        {dirty && (
          <button type="button" className="button" onClick={() => change(draftsFrom(stored))}>
            Discard changes
          </button>
        )}
        {justSaved && !dirty && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
