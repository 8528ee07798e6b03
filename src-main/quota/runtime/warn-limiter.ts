/**
 * One warning line per period, with the count of what was held back: a dead store must not flood the
 * log with one line per request (QPIPE-3), yet the operator must still see that it keeps happening.
 */
export function createWarnLimiter(log: (line: string) => void, periodMs = 10_000) {
  let lastAt = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (line: string, now: number): void => {
    if (now - lastAt < periodMs) {
      held += 1;
      return;
    }
    const suffix = held > 0 ? ` (+${held} more like this in the last ${Math.round((now - lastAt) / 1000)}s)` : '';
    lastAt = now;
    held = 0;
    log(line + suffix);
  };
}
