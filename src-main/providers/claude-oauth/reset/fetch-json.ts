/** One JSON exchange with an upstream; the body is a JSON value the transport serialises. */
export interface FetchJsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: unknown;
  timeoutMs: number;
}

/** Any HTTP answer (JSON, or `null` when the body was not JSON), or why there was none. */
export type FetchJsonResult = { status: number; json: unknown } | { error: 'timeout' | 'network' };

/**
 * The only I/O the reset client performs, injected so the core can use undici and tests a stub.
 * Implementations should resolve with `{ error }` rather than throw; a throw is treated as `network`.
 */
export type FetchJson = (request: FetchJsonRequest) => Promise<FetchJsonResult>;

/** Calls `fetchJson`, turning a thrown error into a network failure so one bad transport cannot escape. */
export async function fetchJsonSafely(fetchJson: FetchJson, request: FetchJsonRequest): Promise<FetchJsonResult> {
  try {
    return await fetchJson(request);
  } catch {
    return { error: 'network' };
  }
}

/** True for a 2xx answer. */
export function isOk(result: FetchJsonResult): result is { status: number; json: unknown } {
  return 'status' in result && result.status >= 200 && result.status < 300;
}
