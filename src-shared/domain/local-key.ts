import { z } from 'zod';
import { connectionNameSchema } from './connection';
import { keyScopeSchema, type KeyScope } from './lease';

/** Local API keys start with this prefix so a leaked one is recognisable. */
export const LOCAL_KEY_PREFIX = 'lw-';

export const localKeyInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(64),
  /** Given by a config file; otherwise the core generates one and shows it once. */
  key: z.string().min(12, 'is at least 12 characters').max(256).optional(),
  /** `lease:exclusive` lets the key hold exclusive leases (LEASE-3); it then needs `allowedConnections`. */
  scopes: z.array(keyScopeSchema).max(8).default([]),
  /** Connection names this key may use; empty = every connection. */
  allowedConnections: z.array(connectionNameSchema).max(200).default([]),
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
  scopes: KeyScope[];
  /** Connection names; empty = every connection. */
  allowedConnections: string[];
}

/** The one moment the plain key is visible: the answer to `keys.create`. */
export interface CreatedLocalKey {
  key: LocalKeyView;
  plainKey: string;
}
