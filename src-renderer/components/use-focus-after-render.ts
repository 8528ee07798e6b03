import { useEffect, useRef } from 'react';

/**
 * Moves focus after the next render to the first of some element ids that exists and is enabled:
 * a reordered row keeps focus on the button pressed (or its twin at an end), a removed one hands it on.
 */
export function useFocusAfterRender(): (ids: string[]) => void {
  const wanted = useRef<string[]>([]);
  useEffect(() => {
    const ids = wanted.current;
    wanted.current = [];
    for (const id of ids) {
      const el = document.getElementById(id);
      if (el && !(el instanceof HTMLButtonElement && el.disabled)) return void el.focus();
    }
  });
  return (ids) => {
    wanted.current = ids;
  };
}

/** The list with row `index` moved by one, and the ids to focus afterwards: the same button, else its twin. */
export function moveRow<T>(rows: readonly T[], index: number, by: -1 | 1, idOf: (row: T) => string) {
  const next = [...rows];
  const [row] = next.splice(index, 1);
  if (row === undefined) return null;
  next.splice(index + by, 0, row);
  const [same, other] = by < 0 ? ['up', 'down'] : ['down', 'up'];
  return { rows: next, focus: [`${idOf(row)}-${same}`, `${idOf(row)}-${other}`] };
}
