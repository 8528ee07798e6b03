import type { FailoverHop } from '../../src-shared/domain/request-log';
import { isRecord, parseJsonArray } from '../kernel/json-columns';

/**
 * A hop as stored: the three fields every row has, and the issue-13 ones only when set (so a
 * hop reads back exactly as it was appended, and old rows stay as small as they were).
 */
export function copyHop(hop: FailoverHop): FailoverHop {
  const copy: FailoverHop = { connection: hop.connection, status: hop.status, reason: hop.reason };
  if (hop.ms !== undefined) copy.ms = Math.round(hop.ms);
  if (hop.upstreamModel !== undefined) copy.upstreamModel = hop.upstreamModel;
  if (hop.headers !== undefined) copy.headers = { ...hop.headers };
  return copy;
}

function stringRecord(value: unknown): Record<string, string> | null {
  if (!isRecord(value)) return null;
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) if (typeof text === 'string') out[name] = text;
  return out;
}

/** Reads a hops column (failover_json, attempts_json); a malformed element is skipped, not fatal. */
export function parseHops(text: string | null): FailoverHop[] {
  if (text === null) return [];
  const hops: FailoverHop[] = [];
  for (const hop of parseJsonArray(text)) {
    if (!isRecord(hop) || typeof hop.connection !== 'string') continue;
    const read: FailoverHop = {
      connection: hop.connection,
      status: typeof hop.status === 'number' ? hop.status : null,
      reason: typeof hop.reason === 'string' ? hop.reason : '',
    };
    if (typeof hop.ms === 'number') read.ms = hop.ms;
    if (typeof hop.upstreamModel === 'string') read.upstreamModel = hop.upstreamModel;
    const headers = stringRecord(hop.headers);
    if (headers) read.headers = headers;
    hops.push(read);
  }
  return hops;
}
