/**
 * Per-account utilisation windows for saturation gating (REFERENCE §12.7 step 1): `5h`, `7d` and
 * `7d:<model>` buckets fed from the provider's usage reports. A bucket is saturated at ≥ 100 % until
 * its reset time passes (lazy: checked when read). Pure state; the caller passes `now`.
 */

/** One reported window: `window` is `5h`, `7d` or `7d:<model>`; `usedPercent` 0..100. */
export interface AccountWindowReport {
  window: string;
  usedPercent: number;
  /** Epoch ms when the window resets; null/absent: until the next report. */
  resetAt?: number | null;
}

interface Bucket {
  usedPercent: number;
  resetAt: number | null;
}

/**
 * The bucket key of a usage-report label: "session (5h)" → `5h`, "weekly (7d)" → `7d`,
 * "weekly opus (7d)" → `7d:opus`; null for a label of another shape.
 */
export function accountWindowKeyOf(label: string): string | null {
  const m = /^\s*(.*?)\s*\((5h|7d)\)\s*$/i.exec(label);
  if (m === null) return null;
  const window = (m[2] ?? '').toLowerCase();
  const words = (m[1] ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'session' && w !== 'weekly');
  if (window === '7d' && words.length > 0) return `7d:${words.join(' ')}`;
  return window;
}

/** The model id without a `provider/` prefix, in lower case. */
export function bareModelOf(model: string): string {
  const slash = model.lastIndexOf('/');
  return (slash >= 0 ? model.slice(slash + 1) : model).trim().toLowerCase();
}

/**
 * Whether a per-model bucket's model covers the request's model: the same id, or a family word of it
 * (`opus` covers `claude-opus-4-5`, as Claude's weekly per-model windows are named by family).
 */
function modelCovers(bucketModel: string, bare: string): boolean {
  if (bucketModel === bare) return true;
  return bare.split(/[-_.:\s]+/).includes(bucketModel);
}

export class AccountWindows {
  private readonly byConnection = new Map<string, Map<string, Bucket>>();

  /** Merges reports into a connection's buckets (a window not reported keeps its last value). */
  record(connectionId: string, windows: readonly AccountWindowReport[], _now: number): void {
    if (connectionId === '') return;
    let buckets = this.byConnection.get(connectionId);
    if (buckets === undefined) {
      buckets = new Map();
      this.byConnection.set(connectionId, buckets);
    }
    for (const w of windows) {
      const key = w.window.trim().toLowerCase();
      if (key === '' || !Number.isFinite(w.usedPercent)) continue;
      buckets.set(key, { usedPercent: w.usedPercent, resetAt: w.resetAt ?? null });
    }
  }

  /** A bucket's utilisation at `now`; a bucket past its reset is dropped and reads as 0. */
  usedPercent(connectionId: string, window: string, now: number): number {
    const buckets = this.byConnection.get(connectionId);
    const bucket = buckets?.get(window);
    if (buckets === undefined || bucket === undefined) return 0;
    if (bucket.resetAt !== null && now >= bucket.resetAt) {
      buckets.delete(window);
      return 0;
    }
    return bucket.usedPercent;
  }

  /** Saturated on `5h`, `7d`, or the `7d` bucket of this request's model (≥ 100 %). */
  isSaturated(connectionId: string | null, model: string, now: number): boolean {
    if (connectionId === null || connectionId === '') return false;
    const buckets = this.byConnection.get(connectionId);
    if (buckets === undefined) return false;
    if (this.usedPercent(connectionId, '5h', now) >= 100) return true;
    if (this.usedPercent(connectionId, '7d', now) >= 100) return true;
    const bare = bareModelOf(model);
    if (bare === '') return false;
    for (const key of [...buckets.keys()]) {
      if (!key.startsWith('7d:')) continue;
      if (modelCovers(key.slice(3), bare) && this.usedPercent(connectionId, key, now) >= 100) return true;
    }
    return false;
  }
}
