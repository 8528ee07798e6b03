import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import { secretStrings, redactSecrets } from '../kernel/redact-secrets';
import { excerptUpstreamText } from '../resilience/classify/message';
import { formatDuration } from '../resilience/cooldown/format-duration';
import type { RuntimeConnection } from '../kernel/catalog';
import { listUpstreamModels, NO_SECRET, type UpstreamListing } from './models-discovery-fetch';
import { NO_MODELS_PATH } from '../kernel/provider-adapter';
import { pickTestModel } from './test-model';
import { sendTestRequest, type TestRequestOutcome } from './test-request';
import type { UpstreamPools } from './upstream-pools';

/** The editor shows at most this many ids in the Test result; discovery keeps the whole list. */
const SHOWN_MODELS = 200;

/** First words of an upstream error, for the person pressing "Test": no credential, not even one echoed back. */
function summarise(connection: RuntimeConnection, text: string): string {
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const found = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof found === 'string') message = found;
  } catch {
    // Not JSON: the raw text.
  }
  return excerptUpstreamText(redactSecrets(message, secretStrings(connection.secret)));
}

/**
 * "Rate limited: retry after 42 s (…)": a 429 is the account's state, not a broken connection.
 * `retryAfterMs` undefined: the answer's hints were not read (the models list).
 */
function refusal(
  connection: RuntimeConnection,
  status: number,
  text: string,
  retryAfterMs: number | null | undefined,
  what: string,
): string {
  const detail = `${what} got ${status}: ${summarise(connection, text)}`;
  if (status !== 429) return detail;
  if (retryAfterMs === undefined) return `Rate limited (${detail})`;
  const when = retryAfterMs === null ? 'no retry time given' : `retry after ${formatDuration(retryAfterMs)}`;
  return `Rate limited: ${when} (${what}: ${summarise(connection, text)})`;
}

/** The Test result for a listing, plus the listing itself so discovery can keep what it found. */
export interface ConnectionTestRun {
  result: ConnectionTestResult;
  listing: UpstreamListing;
}

const listedIds = (listing: UpstreamListing): string[] =>
  listing.kind === 'listed' ? listing.models.slice(0, SHOWN_MODELS).map((m) => m.id) : [];

/** The answer when the models list alone decides (it failed, or no request could follow it). */
function listingResult(connection: RuntimeConnection, listing: UpstreamListing, latencyMs: number, note: string) {
  switch (listing.kind) {
    case 'listed':
    case 'unparsable':
      return {
        ok: true,
        status: listing.status,
        latencyMs,
        message: `Connected in ${latencyMs} ms${note}`,
        models: listedIds(listing),
      };
    case 'refused':
      return {
        ok: false,
        status: listing.status,
        latencyMs,
        message: refusal(connection, listing.status, listing.text, undefined, 'the model list'),
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

function requestResult(
  connection: RuntimeConnection,
  listing: UpstreamListing,
  model: string,
  outcome: Exclude<TestRequestOutcome, { kind: 'unsupported' }>,
  latencyMs: number,
): ConnectionTestResult {
  const models = listedIds(listing);
  const what = `a 1-token request to ${model}`;
  switch (outcome.kind) {
    case 'answered':
      return {
        ok: true,
        status: outcome.status,
        latencyMs,
        message: `Connected: ${model} answered in ${latencyMs} ms`,
        models,
      };
    case 'refused':
      return {
        ok: false,
        status: outcome.status,
        latencyMs,
        message: refusal(connection, outcome.status, outcome.text, outcome.retryAfterMs, what),
        models,
      };
    case 'unreachable':
      return {
        ok: false,
        status: null,
        latencyMs,
        message: `Could not reach ${connection.origin} (${outcome.code})`,
        models,
      };
  }
}

/** A list endpoint some OpenAI-compatible servers lack: the request still tells whether they serve. */
const NO_LIST_ENDPOINT = new Set([404, 405, 501]);

/**
 * Checks a connection as a client would meet it (issue 21 §17): its models list with its own
 * credential (free; feeds discovery), then one minimal real request — one token, the cheapest model
 * it has — since a list answers even for an account whose every request is refused. A Claude
 * subscription gets the list only: Leeway sends no request of its own on it. Nothing here is fed to
 * the resilience engines.
 */
export async function runConnectionTest(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  now: () => number,
): Promise<ConnectionTestRun> {
  const started = now();
  const listing = await listUpstreamModels(pools, connection);
  const listedAt = now();
  const listed =
    listing.kind === 'refused'
      ? NO_LIST_ENDPOINT.has(listing.status)
      : listing.kind === 'listed' || listing.kind === 'unparsable';
  const model = listed
    ? pickTestModel(connection, listing.kind === 'listed' ? listing.models.map((m) => m.id) : [])
    : null;
  if (!listed || model === null) {
    const note = listed ? ' (model list; no model known to send a test request to)' : '';
    return { result: listingResult(connection, listing, listedAt - started, note), listing };
  }
  const outcome = await sendTestRequest(pools, connection, model, now);
  if (outcome.kind === 'unsupported') {
    const note = ' (model list only: Leeway sends no request of its own on a Claude subscription)';
    return { result: listingResult(connection, listing, listedAt - started, note), listing };
  }
  return { result: requestResult(connection, listing, model, outcome, now() - listedAt), listing };
}

/** `runConnectionTest` without the listing, for callers that only show the result. */
export async function testConnection(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  now: () => number,
): Promise<ConnectionTestResult> {
  return (await runConnectionTest(pools, connection, now)).result;
}
