import type { Redis } from 'ioredis';

/**
 * Pins and leases leave one fact per session or owner in the team's hashes; nothing in Redis expires
 * a hash field, so each instance now and then deletes the facts no merge can use any more. A field
 * goes only if it still holds the text judged stale (compare-and-delete): a fresh fact written by
 * another instance meanwhile stays.
 */
export type SweepClient = Pick<Redis, 'hgetall' | 'eval'>;

const DELETE_IF_SAME = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`;

/** The facts are wrapped by the bus (`{ kind, name, json, at, from }`); `stale` judges the inner JSON. */
export async function sweepStaleFacts(
  client: SweepClient,
  hash: string,
  stale: (json: string) => boolean,
): Promise<number> {
  const all = await client.hgetall(hash);
  let gone = 0;
  for (const [field, text] of Object.entries(all)) {
    if (!stale(innerJson(text))) continue;
    gone += Number(await client.eval(DELETE_IF_SAME, 1, hash, field, text));
  }
  return gone;
}

function innerJson(text: string): string {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && 'json' in v && typeof v.json === 'string' ? v.json : '';
  } catch {
    return '';
  }
}
