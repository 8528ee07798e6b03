import { ok } from '../../../src-shared/contract/errors';
import type { DiscoveredModelsView } from '../../../src-shared/contract/methods';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { currentModels, isDiscoverable } from '../../providers/models-discovery';

type DiscoveryHandlers = Pick<Handlers, 'models.discovered'>;

/**
 * `models.discovered` for the connection editor: read from SQLite, where discovery writes every
 * attempt through, so the handler needs nothing of the running discovery.
 */
export function discoveredModelsHandlers(deps: HandlerDeps): DiscoveryHandlers {
  return {
    'models.discovered': (input) => {
      const entries = new Map(deps.discoveredModels.loadAll().map((e) => [e.connectionId, e]));
      const views = deps.connections
        .list()
        .filter((c) => input?.connection === undefined || c.name === input.connection)
        .map((c): DiscoveredModelsView => {
          const entry = entries.get(c.id);
          // An entry from another base URL is another upstream's list: shown as nothing yet.
          const current = entry && entry.baseUrl === c.effectiveBaseUrl ? entry : undefined;
          return {
            connection: c.name,
            discoverable: isDiscoverable(c),
            models: currentModels(c, current).map((m) => ({ id: m.id, displayName: m.displayName })),
            fetchedAt: current?.fetchedAt ?? null,
            attemptedAt: current?.attemptedAt ?? null,
            lastError: current?.lastError ?? null,
          };
        });
      return ok(views);
    },
  };
}
