import type { UsageSample } from './burn-rate';

/** How many points a dimension's burn-rate history keeps by default (e.g. 2 hours at one a minute). */
export const DEFAULT_SAMPLE_CAPACITY = 120;

/**
 * A fixed-capacity ring of usage samples, oldest overwritten first: the burn-rate history of one
 * dimension, kept in memory by the runtime. Pure: the caller passes the time with each sample.
 */
export class SampleRing {
  private readonly at: Float64Array;
  private readonly value: Float64Array;
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number = DEFAULT_SAMPLE_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.at = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The newest sample's time, or null when empty. */
  lastAt(): number | null {
    return this.count === 0 ? null : (this.at[(this.start + this.count - 1) % this.capacity] ?? null);
  }

  /**
   * Adds a sample. One at the same time as the newest replaces it; one older than the newest is
   * dropped (time never runs backwards in a history).
   */
  push(at: number, value: number): void {
    const last = this.lastAt();
    if (last !== null && at < last) return;
    if (last !== null && at === last) {
      this.value[(this.start + this.count - 1) % this.capacity] = value;
      return;
    }
    const slot = (this.start + this.count) % this.capacity;
    this.at[slot] = at;
    this.value[slot] = value;
    if (this.count < this.capacity) this.count += 1;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** The samples, oldest first. */
  toArray(): UsageSample[] {
    const out: UsageSample[] = [];
    for (let i = 0; i < this.count; i++) {
      const slot = (this.start + i) % this.capacity;
      out.push({ at: this.at[slot] ?? 0, value: this.value[slot] ?? 0 });
    }
    return out;
  }

  clear(): void {
    this.start = 0;
    this.count = 0;
  }
}
