import { ReorderButtons } from '../../components/reorder-buttons';
import type { RouteDraft, RouteErrors } from './routes-form';

/** One route: its pattern, its target, and the buttons that move or remove it. */
export function RouteRow({
  draft,
  index,
  count,
  errors,
  suggestionsId,
  onChange,
  onMove,
  onRemove,
}: {
  draft: RouteDraft;
  index: number;
  count: number;
  errors: RouteErrors;
  suggestionsId: string;
  onChange: (patch: Partial<RouteDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const id = `route-${draft.key}`;
  const matchError = errors[`${index}.match`];
  const toError = errors[`${index}.to`];
  return (
    <li className="route-row">
      <div className="route-fields">
        <div className={matchError ? 'field invalid' : 'field'}>
          <label htmlFor={`${id}-match`}>Route {n} match</label>
          <input
            id={`${id}-match`}
            value={draft.match}
            placeholder="e.g. *haiku*"
            aria-invalid={Boolean(matchError)}
            aria-describedby={matchError ? `${id}-match-error` : undefined}
            onChange={(e) => onChange({ match: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
          {matchError && (
            <p id={`${id}-match-error`} className="field-error">
              {matchError}
            </p>
          )}
        </div>
        <span className="route-arrow" aria-hidden="true">
          →
        </span>
        <div className={toError ? 'field invalid' : 'field'}>
          <label htmlFor={`${id}-to`}>Route {n} to</label>
          <input
            id={`${id}-to`}
            value={draft.to}
            list={suggestionsId}
            placeholder="a combo or connection/model"
            aria-invalid={Boolean(toError)}
            aria-describedby={toError ? `${id}-to-error` : undefined}
            onChange={(e) => onChange({ to: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
          {toError && (
            <p id={`${id}-to-error`} className="field-error">
              {toError}
            </p>
          )}
        </div>
      </div>
      <div className="route-actions">
        <ReorderButtons id={id} index={index} count={count} noun="route" onMove={onMove} onRemove={onRemove} />
      </div>
    </li>
  );
}
