/** One warning per model per window: a client retrying against cooling targets must not flood the log. */
const WINDOW_MS = 30_000;
/** Models remembered at once; past it, lines older than the window are forgotten. */
const MAX_MODELS = 1_000;

export interface ExclusionLog {
  /** Logs (or counts, within the window) that nothing could be dispatched for `model`. */
  report(model: string, viaCombo: boolean, parts: readonly string[], now: number): void;
}

/**
 * The operator's line when every target is excluded before dispatch. A combo keeps the wording
 * ROUTE-7 asks for; a plain model says what happened in Leeway's own words.
 */
export function createExclusionLog(log: (line: string) => void, windowMs = WINDOW_MS): ExclusionLog {
  const seen = new Map<string, { at: number; suppressed: number }>();
  return {
    report(model, viaCombo, parts, now) {
      const last = seen.get(model);
      if (last && now - last.at < windowMs) {
        last.suppressed += 1;
        return;
      }
      if (seen.size >= MAX_MODELS) for (const [key, entry] of seen) if (now - entry.at >= windowMs) seen.delete(key);
      if (seen.size >= MAX_MODELS) seen.clear();
      seen.set(model, { at: now, suppressed: 0 });
      const name = JSON.stringify(model);
      const head = viaCombo
        ? `[COMBO] Weighted selection: every target excluded before dispatch — combo ${name}: `
        : `[ROUTE] every target for ${name} is excluded: `;
      const more = last && last.suppressed > 0 ? ` (${last.suppressed} more like this since the last line)` : '';
      log(`${head}${parts.join(', ')}${more}`);
    },
  };
}

const perProxy = new WeakMap<object, ExclusionLog>();

/** The exclusion log of one proxy (keyed by its context), so two cores in a process do not share a window. */
export function exclusionLogFor(owner: object, log: (line: string) => void): ExclusionLog {
  let found = perProxy.get(owner);
  if (!found) perProxy.set(owner, (found = createExclusionLog(log)));
  return found;
}
