import { z } from 'zod';

/** What a held request waits for (issue 24 §2). */
export type HeldWait = 'cooldown' | 'queue' | 'lane';

/** One request waiting right now, as the dashboard and the tray list it. */
export interface HeldRequestView {
  id: string;
  /** When the wait began (epoch ms). */
  since: number;
  keyName: string | null;
  model: string;
  session: string | null;
  stream: boolean;
  waitsFor: HeldWait;
  /** In words: "max-2's cooldown to end at 14:03:10", "a slot on max-2 (3 waiting)". */
  what: string;
  /** When the wait ends by itself (epoch ms); null when nobody knows (a queue). */
  until: number | null;
  /** The actions this wait takes: `cancel` always; the others only where they mean something. */
  actions: HeldAction[];
}

/**
 * `cancel`: the client gets a typed error at once. `go-now`: skip the wait and use any connection
 * that serves the model now (a cooling one included). `release-lease`: end the session's lease and
 * pin, so the request may move to a free connection at once.
 */
export const heldActionSchema = z.enum(['cancel', 'go-now', 'release-lease']);
export type HeldAction = z.infer<typeof heldActionSchema>;

export const heldActSchema = z.object({ id: z.string().trim().min(1), action: heldActionSchema }).strict();
export type HeldAct = z.infer<typeof heldActSchema>;
