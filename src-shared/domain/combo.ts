import { z } from 'zod';
import { connectionNameSchema } from './connection';

/** One entry of a combo: a connection, optionally pinned to a model id. */
export const comboTargetSchema = z.union([
  connectionNameSchema.transform((connection) => ({ connection, model: null as string | null })),
  z.object({
    connection: connectionNameSchema,
    model: z.string().trim().min(1).nullable().default(null),
    /** The `weighted` strategy's share of new picks (1..100, default 1); other strategies ignore it. */
    weight: z.number().int().min(1).max(100).optional(),
  }),
]);
export type ComboTarget = { connection: string; model: string | null; weight?: number };

/**
 * How a combo orders the targets the plan kept, for a pick no session pin decides (ROUTE-1: the 19
 * public ids; `quota-share` stays internal, ROUTE-10). Strategies only order: exclusions, leases and
 * quota have already been applied. One sentence per id: the combo editor's `STRATEGY_TEXT`.
 */
export const COMBO_STRATEGIES = [
  'priority',
  'weighted',
  'round-robin',
  'context-relay',
  'fill-first',
  'p2c',
  'random',
  'least-used',
  'cost-optimized',
  'reset-aware',
  'reset-window',
  'leeway',
  'strict-random',
  'auto',
  'lkgp',
  'context-optimized',
  'cache-optimized',
  'fusion',
  'pipeline',
] as const;
export const comboStrategySchema = z.enum(COMBO_STRATEGIES);
export type ComboStrategy = z.infer<typeof comboStrategySchema>;

export const comboInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(64)
    .regex(/^[A-Za-z0-9._:-]+$/, 'may contain letters, digits, ".", "_", ":" and "-" only'),
  targets: z.array(comboTargetSchema).min(1, 'needs at least one target').max(50),
  strategy: comboStrategySchema.default('priority'),
});
export type ComboInput = z.input<typeof comboInputSchema>;

export interface ComboView {
  id: string;
  name: string;
  targets: ComboTarget[];
  strategy: ComboStrategy;
  createdAt: number;
  updatedAt: number;
}
