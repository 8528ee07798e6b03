/**
 * Issue 24 §3: where a session's prompt cache lives. A provider keeps a prompt cache for about five
 * minutes after its last use, with the account that served it; moving a session elsewhere throws
 * it away. This remembers, per pin scope, the cache the last answer left (how many input tokens it
 * holds, on which connection, when last used) and the one before a move, so the plan can wait for a
 * short rate limit instead of moving, price what a move throws away, and go back while it is warm.
 * Memory only: a cache colder than five minutes is worth nothing, so nothing here needs to survive.
 */

/** The providers' prompt-cache lifetime after last use (Anthropic's default TTL; OpenAI's is similar). */
export const CACHE_WARM_MS = 5 * 60_000;

export interface CacheMark {
  connectionId: string;
  connection: string;
  model: string;
  /** Input tokens the cache holds: what the last answer read from it plus what it wrote to it. */
  tokens: number;
  lastUsedAt: number;
}

export interface SessionCache {
  current: CacheMark;
  /** The cache left behind by the last move, while it may still be warm. */
  previous: CacheMark | null;
}

export const isWarm = (mark: CacheMark | null | undefined, now: number): mark is CacheMark =>
  mark !== null && mark !== undefined && mark.tokens > 0 && now - mark.lastUsedAt <= CACHE_WARM_MS;

/** The cache a session keeps after an answer: same connection refreshes it; another one moves it. */
export function afterAnswer(state: SessionCache | undefined, mark: CacheMark, now: number): SessionCache {
  if (!state || state.current.connectionId === mark.connectionId)
    return { current: mark, previous: state?.previous ?? null };
  return { current: mark, previous: isWarm(state.current, now) ? state.current : null };
}

/** The warm cache a request served by `connectionId` leaves behind (null: none, or the same connection). */
export function lostBy(state: SessionCache | undefined, connectionId: string, now: number): CacheMark | null {
  if (!state || state.current.connectionId === connectionId) return null;
  return isWarm(state.current, now) ? state.current : null;
}

/** The connection a moved session should go back to: its old one, while that cache is warm. */
export function warmReturn(state: SessionCache | undefined, now: number): CacheMark | null {
  if (!state || !isWarm(state.previous, now)) return null;
  return state.previous.connectionId === state.current.connectionId ? null : state.previous;
}

/** The book of session caches by pin key; bounded (the oldest go first) and pruned of cold entries. */
export interface PromptCacheBook {
  get(pinKey: string): SessionCache | undefined;
  set(pinKey: string, state: SessionCache): void;
  readonly size: number;
}

export function createPromptCacheBook(max = 10_000): PromptCacheBook {
  const book = new Map<string, SessionCache>();
  return {
    get: (key) => book.get(key),
    set(key, state) {
      // Re-inserting keeps the Map in last-use order, so the first key is the coldest.
      book.delete(key);
      book.set(key, state);
      while (book.size > max) {
        const oldest = book.keys().next();
        if (oldest.done) break;
        book.delete(oldest.value);
      }
    },
    get size() {
      return book.size;
    },
  };
}
