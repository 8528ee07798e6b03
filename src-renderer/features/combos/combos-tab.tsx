import { useStore } from 'zustand';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';

/** Combos: names a client can use as a model, each spreading over an ordered list of targets. */
export function CombosTab() {
  const { combos } = useStores();
  const state = useStore(combos);
  return (
    <section aria-labelledby="combos-title">
      <h2 id="combos-title">Combos</h2>
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.items.length === 0 ? (
          <EmptyState title="No combos yet">
            <p>
              A combo is a model name that Headroom spreads over several connections, failing over when one is rate
              limited. Without one, clients ask for a model by its own name and Headroom picks a connection that serves
              it.
            </p>
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Targets, in order</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((combo) => (
                <tr key={combo.id}>
                  <td>
                    <code>{combo.name}</code>
                  </td>
                  <td>
                    <ol className="targets">
                      {combo.targets.map((t, i) => (
                        <li key={i}>
                          {t.connection}
                          {t.model && <span className="muted"> · {t.model}</span>}
                        </li>
                      ))}
                    </ol>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadGate>
    </section>
  );
}
