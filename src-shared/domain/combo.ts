import { z } from 'zod';
import { connectionNameSchema } from './connection';

/** One entry of a combo: a connection, optionally pinned to a model id. */
export const comboTargetSchema = z.union([
  connectionNameSchema.transform((connection) => ({ connection, model: null as string | null })),
  z.object({ connection: connectionNameSchema, model: z.string().trim().min(1).nullable().default(null) }),
]);
export type ComboTarget = { connection: string; model: string | null };

/**
 * How a combo orders its targets for a pick no session pin decides. `priority`: the listed order;
 * `round-robin`: the least recently picked eligible target first. More come with the flow-control work.
 */
export const COMBO_STRATEGIES = ['priority', 'round-robin'] as const;
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
