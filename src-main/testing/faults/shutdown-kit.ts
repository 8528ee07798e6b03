/** A request made with fetch whose answer is read as it arrives: its status, first bytes and whole text. */
export interface InFlightRequest {
  status: Promise<number>;
  /** Resolves once the first body bytes arrived (a stream has committed). */
  firstBytes: Promise<string>;
  /** The whole body; resolves when the answer ends, cleanly or not ('' when none came). */
  text: Promise<string>;
}

/** POSTs `body` as JSON and reads the answer chunk by chunk. */
export function startRequest(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): InFlightRequest {
  let gotFirst: (text: string) => void = () => undefined;
  const firstBytes = new Promise<string>((resolve) => (gotFirst = resolve));
  const response = fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = response.then(
    async (res) => {
      let all = '';
      if (!res.body) return all;
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body) {
          all += decoder.decode(chunk, { stream: true });
          gotFirst(all);
        }
      } catch {
        // A cut connection: what arrived is the record.
      }
      gotFirst(all);
      return all;
    },
    () => {
      gotFirst('');
      return '';
    },
  );
  // 0: no answer at all (the connection was refused or cut before a status line).
  return {
    status: response.then(
      (res) => res.status,
      () => 0,
    ),
    firstBytes,
    text,
  };
}

/** The last SSE event of a body (comments skipped): its `event:` name, if any, and its data parsed as JSON. */
export function lastSseEvent(body: string): { event: string | null; data: unknown } {
  const blocks = body
    .split(/\n\n/)
    .map((b) => b.trim())
    .filter((b) => b !== '' && !b.split('\n').every((line) => line.startsWith(':')));
  const last = blocks.at(-1) ?? '';
  const event = /^event: (.*)$/m.exec(last)?.[1] ?? null;
  const data = /^data: (.*)$/m.exec(last)?.[1];
  if (data === undefined) return { event, data: null };
  try {
    return { event, data: JSON.parse(data) as unknown };
  } catch {
    return { event, data };
  }
}
