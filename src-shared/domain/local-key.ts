import { z } from 'zod';

/** Local API keys start with this prefix so a leaked one is recognisable. */
export const LOCAL_KEY_PREFIX = 'hr-';

export const localKeyInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(64),
  /** Given by a config file; otherwise the core generates one and shows it once. */
  key: z.string().min(12, 'is at least 12 characters').max(256).optional(),
});
export type LocalKeyInput = z.input<typeof localKeyInputSchema>;

export interface LocalKeyView {
  id: string;
  name: string;
  /** First characters of the key, to recognise it in lists. */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** The one moment the plain key is visible: the answer to `keys.create`. */
export interface CreatedLocalKey {
  key: LocalKeyView;
  plainKey: string;
}
