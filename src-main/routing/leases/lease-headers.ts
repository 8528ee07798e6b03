import { LEASE_GENERATION_HEADERS, LEASE_OWNER_HEADERS, LEASE_OWNER_PATTERN } from '../../../src-shared/domain/lease';
import type { HeaderBag } from '../affinity/session-key';
import { refuse, type LeaseRefusal } from './lease-book';

type LeaseHeader = (typeof LEASE_OWNER_HEADERS)[number] | (typeof LEASE_GENERATION_HEADERS)[number];

/** The lease a request presents (plain owner: the caller hashes it), and the lease headers to strip. */
export interface LeaseHeaders {
  presented: { kind: 'none' } | { kind: 'present'; owner: string; generation: number } | LeaseRefusal;
  /** Present lease headers; never forwarded upstream or logged (LEASE-10). Shared empty list when none. */
  strip: readonly LeaseHeader[];
}

const NONE: readonly LeaseHeader[] = [];
const NOT_PRESENTED: LeaseHeaders = { presented: { kind: 'none' }, strip: NONE };
const ALL: readonly LeaseHeader[] = [...LEASE_OWNER_HEADERS, ...LEASE_GENERATION_HEADERS];

/** Runs for every request; a plain loop so a request without lease headers allocates nothing. */
function anyPresent(headers: HeaderBag): boolean {
  for (const name of ALL) if (headers[name] !== undefined) return true;
  return false;
}

function first(headers: HeaderBag, names: readonly LeaseHeader[], strip: LeaseHeader[]): string | undefined {
  let found: string | undefined;
  for (const name of names) {
    const raw = headers[name];
    if (raw === undefined) continue;
    strip.push(name);
    found ??= (Array.isArray(raw) ? raw[0] : raw)?.trim();
  }
  return found;
}

/**
 * Reads `x-leeway-lease-owner` / `-generation` (aliases `x-omniroute-lease-*`, PROD-15); the
 * Leeway name wins when both are sent. Both or neither: an owner without its exact generation
 * cannot pass the fence (LEASE-6), so half a pair is refused, as is a malformed value.
 */
export function readLeaseHeaders(headers: HeaderBag): LeaseHeaders {
  if (!anyPresent(headers)) return NOT_PRESENTED;
  const strip: LeaseHeader[] = [];
  const owner = first(headers, LEASE_OWNER_HEADERS, strip);
  const generation = first(headers, LEASE_GENERATION_HEADERS, strip);
  if (owner === undefined || generation === undefined) {
    return {
      presented: refuse('lease_headers_invalid', 'Send both the lease owner and the lease generation headers'),
      strip,
    };
  }
  if (!LEASE_OWNER_PATTERN.test(owner)) {
    return { presented: refuse('lease_headers_invalid', 'The lease owner is not a Leeway lease owner id'), strip };
  }
  if (!/^[1-9][0-9]{0,15}$/.test(generation) || !Number.isSafeInteger(Number(generation))) {
    return { presented: refuse('lease_headers_invalid', 'The lease generation must be a positive integer'), strip };
  }
  return { presented: { kind: 'present', owner, generation: Number(generation) }, strip };
}
