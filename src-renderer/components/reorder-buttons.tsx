/**
 * Up, down and remove for row `index` of an ordered list (combo targets, routes); `id` prefixes the
 * buttons' ids so a moved row can keep focus on the button pressed (see useFocusAfterRender).
 */
export function ReorderButtons({
  id,
  index,
  count,
  noun,
  onMove,
  onRemove,
}: {
  id: string;
  index: number;
  count: number;
  /** Names the row in the buttons' labels: "Move target 2 up". */
  noun: string;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  return (
    <>
      <button
        type="button"
        id={`${id}-up`}
        className="button small"
        disabled={index === 0}
        onClick={() => onMove(-1)}
        aria-label={`Move ${noun} ${n} up`}
      >
        ↑
      </button>
      <button
        type="button"
        id={`${id}-down`}
        className="button small"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
        aria-label={`Move ${noun} ${n} down`}
      >
        ↓
      </button>
      <button type="button" className="button small danger" onClick={onRemove} aria-label={`Remove ${noun} ${n}`}>
        Remove
      </button>
    </>
  );
}
