/**
 * Points a running Leeway at the suite's upstream through its admin API (`POST /api/rpc/<method>`
 * with the admin token), and takes it all away afterwards. Two connections per format with their
 * own keys, behind a round-robin combo named like the suite's model: requests spread over both, so
 * the session rows can see whether a session stays on one. Nothing else of the user's setup changes;
 * the connections list only the suite's model names, so no other traffic reaches them.
 */
import type { ConformanceUpstream } from '../upstream/types';

export interface LeewayAdmin {
  /** Where the admin API answers (the proxy's origin unless Leeway runs it on its own port). */
  adminUrl: string;
  token: string;
}

export interface ModelNames {
  anthropic: string;
  openai: string;
}

const PREFIX = 'conformance';

async function rpc(admin: LeewayAdmin, method: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${admin.adminUrl}/api/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Leeway admin API ${method}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

function plan(upstream: ConformanceUpstream, models: ModelNames) {
  const formats = [
    { kind: 'anthropic', model: models.anthropic, baseUrl: upstream.url, tag: 'anthropic' },
    { kind: 'openai', model: models.openai, baseUrl: `${upstream.url}/v1`, tag: 'openai' },
  ] as const;
  return formats.map((f) => ({
    combo: f.model,
    connections: ['a', 'b'].map((side) => ({
      name: `${PREFIX}-${f.tag}-${side}`,
      kind: f.kind,
      baseUrl: f.baseUrl,
      secret: { type: 'api-key', apiKey: `sk-${PREFIX}-${f.tag}-key-${side}` },
      models: [f.model],
    })),
  }));
}

/** Adds the suite's connections and combos; returns the undo. */
export async function configureLeeway(
  admin: LeewayAdmin,
  upstream: ConformanceUpstream,
  models: ModelNames,
): Promise<() => Promise<void>> {
  const groups = plan(upstream, models);
  const undo = async (): Promise<void> => {
    for (const group of groups) await rpc(admin, 'combos.remove', { name: group.combo }).catch(() => undefined);
    for (const c of groups.flatMap((g) => g.connections))
      await rpc(admin, 'connections.remove', { name: c.name }).catch(() => undefined);
  };
  try {
    for (const group of groups) {
      for (const connection of group.connections) await rpc(admin, 'connections.upsert', connection);
      const targets = group.connections.map((c) => ({ connection: c.name, model: group.combo }));
      await rpc(admin, 'combos.upsert', { name: group.combo, strategy: 'round-robin', targets });
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}
