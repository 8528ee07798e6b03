import type { RuntimeConnection } from './catalog';
import type { PlanNote } from './plan-note';

/** One candidate upstream for a request: a connection and the model id to send it (fresh objects per request). */
export interface Target {
  connection: RuntimeConnection;
  upstreamModel: string;
  /** Set by the strategy store that ordered this request's candidates (see plan-note.ts). */
  plan?: PlanNote | null;
  /** This target's place in that plan's list. */
  listedAt?: number;
}
