import { createContext, useContext, type ReactNode } from 'react';
import type { Stores } from './create-stores';

const StoresContext = createContext<Stores | null>(null);

/** Hands the domain stores to every view; tests pass stores fed by the fake api. */
export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext value={stores}>{children}</StoresContext>;
}

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores needs a StoresProvider above it');
  return stores;
}
