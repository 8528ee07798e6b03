import { useCallback, useState } from 'react';

/** localStorage key: the ids of the settings groups the person folded away. */
export const COLLAPSED_GROUPS_KEY = 'leeway:settings:collapsed-groups';

function readCollapsed(): ReadonlySet<string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(COLLAPSED_GROUPS_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeCollapsed(ids: ReadonlySet<string>): void {
  try {
    window.localStorage.setItem(COLLAPSED_GROUPS_KEY, JSON.stringify([...ids]));
  } catch {
    // Private mode or a full store: the groups just open again next time.
  }
}

/** Which settings groups are folded; every group starts open, and the choice is remembered. */
export function useCollapsedGroups() {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const update = useCallback((next: ReadonlySet<string>) => {
    writeCollapsed(next);
    setCollapsed(next);
  }, []);
  return {
    isOpen: (id: string): boolean => !collapsed.has(id),
    toggle: (id: string): void => {
      const next = new Set(collapsed);
      if (!next.delete(id)) next.add(id);
      update(next);
    },
    open: (id: string): void => {
      if (!collapsed.has(id)) return;
      const next = new Set(collapsed);
      next.delete(id);
      update(next);
    },
    setAll: (ids: readonly string[], open: boolean): void => update(new Set(open ? [] : ids)),
  };
}
