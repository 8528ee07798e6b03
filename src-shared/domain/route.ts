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

/** One model route (issue 9 §5): requests whose model matches `match` go to `to`. */
export const routeSchema = z
  .object({
    match: routeGlobSchema,
    /** A combo name or `connection/model`, resolved like a model the client asked for. */
    to: z.string().trim().min(1, 'is required').max(200),
  })
  .strict();
export type Route = z.infer<typeof routeSchema>;

/** Ordered; the first match decides, and `*` as the last entry is the catch-all. */
export const routesSchema = z.array(routeSchema).max(200);
