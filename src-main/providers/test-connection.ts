import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import type { RuntimeConnection } from '../routing/catalog';
import { listUpstreamModels, NO_MODELS_PATH, NO_SECRET, type UpstreamListing } from './models-discovery-fetch';
import type { UpstreamPools } from './upstream-pools';

/** The editor shows at most this many ids in the Test result; discovery keeps the whole list. */
const SHOWN_MODELS = 200;

/** First words of an upstream error, for the person pressing "Test"; never echoes request headers. */
function summarise(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.slice(0, 200);
}

/** The Test result for a listing, plus the listing itself so discovery can keep what it found. */
export interface ConnectionTestRun {
  result: ConnectionTestResult;
  listing: UpstreamListing;
}

function resultOf(connection: RuntimeConnection, listing: UpstreamListing, latencyMs: number): ConnectionTestResult {
  switch (listing.kind) {
    case 'listed':
      return {
        ok: true,
        status: listing.status,
        latencyMs,
        message: `Connected in ${latencyMs} ms`,
        models: listing.models.slice(0, SHOWN_MODELS).map((m) => m.id),
      };
    case 'unparsable':
      // A 2xx without a parsable list still proves the credential.
      return { ok: true, status: listing.status, latencyMs, message: `Connected in ${latencyMs} ms`, models: [] };
    case 'refused':
      return {
        ok: false,
        status: listing.status,
        latencyMs,
        message: `Upstream answered ${listing.status}: ${summarise(listing.text)}`,
        models: [],
      };
    case 'unreachable':
      return {
        ok: false,
        status: null,
        latencyMs,
        message: `Could not reach ${connection.origin} (${listing.code})`,
        models: [],
      };
    case 'unsupported':
      return {
        ok: false,
        status: null,
        latencyMs: 0,
        message: listing.reason === 'no_secret' ? NO_SECRET : NO_MODELS_PATH,
        models: [],
      };
  }
}

/**
 * Checks a connection the cheapest way its API allows: list its models with its own credential.
 * Costs no tokens, proves the URL and the credential, and is not fed to the resilience engines.
 */
export async function runConnectionTest(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  now: () => number,
): Promise<ConnectionTestRun> {
  const started = now();
  const listing = await listUpstreamModels(pools, connection);
  return { result: resultOf(connection, listing, now() - started), listing };
}

/** `runConnectionTest` without the listing, for callers that only show the result. */
export async function testConnection(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  now: () => number,
): Promise<ConnectionTestResult> {
  return (await runConnectionTest(pools, connection, now)).result;
}
