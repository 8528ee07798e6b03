/**
 * Follows `GET /api/events` of a running Leeway and keeps the id of every `activity.request`
 * entry, i.e. every request-log id handed to the dashboard.
 */
export interface ActivityIds {
  readonly ids: number[];
  /** Resolves once at least `count` ids have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

export async function followActivityIds(url: string, adminToken: string): Promise<ActivityIds> {
  const ids: number[] = [];
  const controller = new AbortController();
  const res = await fetch(`${url}/api/events`, {
    headers: { authorization: `Bearer ${adminToken}` },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`GET /api/events answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let pending = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        pending += value;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const data = /^event: activity\.request\ndata: (.*)$/m.exec(frame)?.[1];
          if (data === undefined) continue;
          const id = field(field(JSON.parse(data), 'entry'), 'id');
          if (typeof id === 'number') ids.push(id);
        }
      }
    } catch {
      // The process went away (kill -9, SIGTERM): the ids so far are the record.
    }
  })();
  return {
    ids,
    async waitFor(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (ids.length < count) {
        if (Date.now() > deadline) throw new Error(`waited for ${count} activity ids, have ${ids.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => controller.abort(),
  };
}
