import { useMemo, useState } from 'react';
import type { RouteKnowledge } from '../../../src-shared/domain/route-targets';
import { LoadError } from '../../components/load-error';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { COMBOS, CONNECTIONS } from '../../resources/shared-data';
import { RoutesEditor } from './routes-editor';
import './routes.css';

/** The stored routes, kept current by `routes.changed` (another window may save too). */
export const ROUTES: ResourceSpec<'routes.list'> = {
  method: 'routes.list',
  events: { 'routes.changed': ({ routes }) => routes },
};

/** Model routes: which combo or connection serves a model name the client picked by itself. */
export function RoutesTab() {
  const { data: routes, error, reload } = useResource(ROUTES);
  const comboList = useResource(COMBOS).data;
  const connectionList = useResource(CONNECTIONS).data;
  const [justSaved, setJustSaved] = useState(false);
  const known = useMemo<RouteKnowledge>(
    () => ({
      combos: new Set((comboList ?? []).map((c) => c.name)),
      connections: new Set((connectionList ?? []).map((c) => c.name)),
      models: new Set((connectionList ?? []).flatMap((c) => [...c.models, ...Object.keys(c.modelAliases)])),
    }),
    [comboList, connectionList],
  );

  return (
    <section aria-labelledby="routes-title">
      <h2 id="routes-title">Routes</h2>
      <div className="routes-intro">
        <p>
          Clients pick model names by themselves: Claude Code asks for its default model, a haiku-class model for
          background work, and whatever <code>/model</code> says. A route sends every model whose name matches its
          pattern to a combo or to <code>connection/model</code>. <strong>The first matching route wins</strong>, after
          exact combo and connection names and before “any connection that serves it”. <code>*</code> matches any run of
          characters and <code>?</code> one; a last route of <code>*</code> catches everything else.
        </p>
        <p className="muted">
          Claude Code recipe: <code>*haiku*</code> → a cheap combo, then <code>*</code> → your main combo.
        </p>
      </div>
      {error && <LoadError what="the routes" error={error} onRetry={reload} />}
      {routes === undefined ? (
        !error && <p className="muted">Loading…</p>
      ) : (
        <RoutesEditor
          // A new stored list (saved here or in another window) starts the form again from it.
          key={JSON.stringify(routes)}
          stored={routes}
          known={known}
          suggestions={[...known.combos, ...known.models, ...[...known.connections].map((c) => `${c}/`)]}
          justSaved={justSaved}
          onSaved={() => setJustSaved(true)}
          onEdited={() => setJustSaved(false)}
        />
      )}
    </section>
  );
}
