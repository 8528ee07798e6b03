import type { Handlers } from '../router';
import { claudeHandlers } from './claude';
import { comboHandlers } from './combos';
import { connectionHandlers } from './connections';
import type { HandlerDeps } from './handler-deps';
import { keyHandlers } from './keys';
import { overviewHandlers } from './overview';
import { queueHandlers } from './queues';
import { heldHandlers } from './held';
import { quotaHandlers } from './quota';
import { resilienceHandlers } from './resilience';
import { routeHandlers } from './routes';
import { sessionHandlers } from './sessions';
import { setupHandlers } from './setup';
import { agentSetupHandlers } from './setup-agents';
import { discoveredModelsHandlers } from './discovered-models';
import { restHandlers } from './settings-and-activity';

/** Every contract method's handler; the type makes a missing one a compile error. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    ...connectionHandlers(deps),
    ...keyHandlers(deps),
    ...comboHandlers(deps),
    ...routeHandlers(deps),
    ...sessionHandlers(deps),
    ...restHandlers(deps),
    ...resilienceHandlers(deps),
    ...claudeHandlers(deps),
    ...quotaHandlers(deps),
    ...queueHandlers(deps),
    ...heldHandlers(deps),
    ...overviewHandlers(deps),
    ...setupHandlers(deps),
    ...agentSetupHandlers(deps),
    ...discoveredModelsHandlers(deps),
  };
}
