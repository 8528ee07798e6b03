/** How long an unreleased pick counts as in flight (REFERENCE §12.7 step 5): a lost release self-heals. */
export const IN_FLIGHT_LEASE_TTL_MS = 120_000;

/**
 * In-flight requests per connection as leases with a TTL: `acquire` adds one and returns its
 * release (idempotent), `count` ignores expired leases. Never below zero; a null or empty
 * connection id is not counted.
 */
export class InFlightLeases {
  private readonly leases = new Map<string, Map<number, number>>();
  private seq = 0;

  constructor(private readonly ttlMs: number = IN_FLIGHT_LEASE_TTL_MS) {}

  acquire(connectionId: string | null, now: number): () => void {
    if (connectionId === null || connectionId === '') return noop;
    let mine = this.leases.get(connectionId);
    if (mine === undefined) {
      mine = new Map();
      this.leases.set(connectionId, mine);
    }
    const id = ++this.seq;
    mine.set(id, now + this.ttlMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.leases.get(connectionId);
      if (current === undefined) return;
      current.delete(id);
      if (current.size === 0) this.leases.delete(connectionId);
    };
  }

  count(connectionId: string | null, now: number): number {
    if (connectionId === null || connectionId === '') return 0;
    const mine = this.leases.get(connectionId);
    if (mine === undefined) return 0;
    for (const [id, expiresAt] of mine) if (now >= expiresAt) mine.delete(id);
    if (mine.size === 0) this.leases.delete(connectionId);
    return mine.size;
  }
}

function noop(): void {}
