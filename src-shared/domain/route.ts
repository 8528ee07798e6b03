import { z } from 'zod';

/**
 * A model glob: `*` is any run of characters (also none, also `/`), `?` exactly one, everything else
 * literal. Printable characters only, so a route never hides a control character.
 */
export const routeGlobSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'may contain printable characters without spaces only');

/**
 * Issue 23 §3, how a Claude Code session's subagents (`x-claude-code-agent-id`) are placed:
 * `share` (the default) keeps them on the session's pin and its warm prompt cache; `spread` gives
 * each subagent a pin of its own, so parallel subagents may land on different connections.
 */
export const SUBAGENT_MODES = ['share', 'spread'] as const;
export type SubagentMode = (typeof SUBAGENT_MODES)[number];

/** One model route (issue 9 §5): requests whose model matches `match` go to `to`. */
export const routeSchema = z
  .object({
    match: routeGlobSchema,
    /** A combo name or `connection/model`, resolved like a model the client asked for. */
    to: z.string().trim().min(1, 'is required').max(200),
    /** Absent: `share`. */
    subagents: z.enum(SUBAGENT_MODES).optional(),
  })
  .strict();
export type Route = z.infer<typeof routeSchema>;

/** Ordered; the first match decides, and `*` as the last entry is the catch-all. */
export const routesSchema = z.array(routeSchema).max(200);
