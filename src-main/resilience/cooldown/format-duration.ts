/** Milliseconds as a person reads them in a panel: `3 s`, `1 min 30 s`, `2 h 5 min`, `1 d 2 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const totalSeconds = Math.round(ms / 1_000);
  const units: [string, number][] = [
    ['d', Math.floor(totalSeconds / 86_400)],
    ['h', Math.floor(totalSeconds / 3_600) % 24],
    ['min', Math.floor(totalSeconds / 60) % 60],
    ['s', totalSeconds % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  // Two units are enough to read at a glance; the exact number is in the decision anyway.
  return units
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([unit, n]) => `${n} ${unit}`)
    .join(' ');
}
