import { createContext, useContext, useState, type ReactNode } from 'react';
import type { CreatedLocalKey } from '../../../src-shared/domain/local-key';

type CreatedKeyState = [CreatedLocalKey | null, (created: CreatedLocalKey | null) => void];

const CreatedKeyContext = createContext<CreatedKeyState | null>(null);

/**
 * The plain key created last, in this page's memory only (the core keeps a hash): the Keys tab shows
 * it once, the Setup tab puts it in its snippets, until dismissed or the page reloads.
 */
export function CreatedKeyProvider({ children }: { children: ReactNode }) {
  const state = useState<CreatedLocalKey | null>(null);
  return <CreatedKeyContext value={state}>{children}</CreatedKeyContext>;
}

export function useCreatedKey(): CreatedKeyState {
  const state = useContext(CreatedKeyContext);
  if (!state) throw new Error('useCreatedKey needs a CreatedKeyProvider above it');
  return state;
}
