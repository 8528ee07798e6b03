/**
 * The byte view of "error body verbatim": the SDKs show only the parsed body, so their fetch is
 * wrapped to keep the raw bytes of an error answer. One request serves both views; a second 5xx
 * would only trip the gateway's breaker.
 */

export interface ErrorTap {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The body of the last non-2xx answer, or null. */
  body(): string | null;
}

export function errorTap(): ErrorTap {
  let body: string | null = null;
  return {
    async fetch(input, init) {
      const response = await fetch(input, init);
      if (!response.ok) body = await response.clone().text();
      return response;
    },
    body: () => body,
  };
}

/** How the client's bytes compare with the upstream's, for the evidence. */
export function compareBytes(got: string | null, sent: string): string {
  if (got === sent) return 'byte-identical';
  try {
    return got !== null && JSON.stringify(JSON.parse(got)) === JSON.stringify(JSON.parse(sent))
      ? 'same JSON, other bytes'
      : 'other bytes';
  } catch {
    return 'other bytes';
  }
}
