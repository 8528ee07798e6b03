import { createStrategyStore, type StrategyOptions, type StrategyStore } from './strategy-store';

/**
 * The name the composition root and the proxy context know the strategy store by (issue 9 had only
 * round-robin); kept so core.ts and proxy-context.ts need no edit. Same object as `StrategyStore`.
 */
export type RoundRobinStore = StrategyStore;

/** `options.stickyRoundRobinLimit`: the composition root passes the setting's getter (absent: 1, no stickiness). */
export const createRoundRobinStore = (options: StrategyOptions = {}): RoundRobinStore =>
  createStrategyStore(Math.random, options);
