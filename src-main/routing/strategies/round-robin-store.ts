import { createStrategyStore, type StrategyStore } from './strategy-store';

/**
 * The name the composition root and the proxy context know the strategy store by (issue 9 had only
 * round-robin); kept so core.ts and proxy-context.ts need no edit. Same object as `StrategyStore`.
 */
export type RoundRobinStore = StrategyStore;

export const createRoundRobinStore = (): RoundRobinStore => createStrategyStore();
