/**
 * Asks an upstream for its own models list with the connection's credential: the adapter's
 * `pathFor('models')` (Anthropic `/v1/models`, OpenAI-format `<base>/models`), following Anthropic's
 * pagination (`has_more` / `after_id`) up to MAX_PAGES. Used by discovery and by the "Test" action.
 */
import type { RuntimeConnection } from '../kernel/catalog';
import { MAX_PAGES, mergePages, parseModelPage, type DiscoveredModel, type ModelPage } from './models-discovery';
import type { UpstreamPools } from './upstream-pools';

/** What one listing attempt found; never thrown, always one of these. */
export type UpstreamListing =
  | { kind: 'listed'; status: number; models: DiscoveredModel[] }
  /** A non-2xx answer; `text` is the start of its body (error details, never request headers). */
  | { kind: 'refused'; status: number; text: string }
  /** A 2xx whose body is no models list: the credential works, the list is unknown. */
  | { kind: 'unparsable'; status: number }
  | { kind: 'unreachable'; code: string }
  | { kind: 'unsupported'; reason: 'no_secret' | 'no_models_path' };

export const NO_SECRET = 'No credential stored for this connection';
import { NO_MODELS_PATH } from '../kernel/provider-adapter';

export const LIST_TIMEOUT_MS = 15_000;
/** Anthropic's largest page; OpenAI-format lists are one page and ignore it. */
const PAGE_LIMIT = 1000;
const ERROR_TEXT_BYTES = 2_000;

function headersFor(connection: RuntimeConnection, secret: NonNullable<RuntimeConnection['secret']>) {
  const headers: Record<string, string> = { accept: 'application/json', ...connection.adapter.authHeaders(secret) };
  if (connection.adapter.format === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  connection.adapter.decorateHeaders?.(headers);
  return headers;
}

function pagePath(connection: RuntimeConnection, path: string, after: string | null): string {
  if (connection.adapter.format === 'gemini') {
    // Google pages by pageToken (at most 1000 a page).
    return `${connection.basePath}${path}?pageSize=${PAGE_LIMIT}${after === null ? '' : `&pageToken=${encodeURIComponent(after)}`}`;
  }
  if (connection.adapter.format !== 'anthropic') return connection.basePath + path;
  const query = `?limit=${PAGE_LIMIT}${after === null ? '' : `&after_id=${encodeURIComponent(after)}`}`;
  return connection.basePath + path + query;
}

/** Lists the upstream's models; `signal` aborts an attempt that outlives the core. */
export async function listUpstreamModels(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<UpstreamListing> {
  const path = connection.adapter.pathFor('models');
  const secret = connection.secret;
  if (!secret) return { kind: 'unsupported', reason: 'no_secret' };
  if (path === null) return { kind: 'unsupported', reason: 'no_models_path' };
  const timeout = options.timeoutMs ?? LIST_TIMEOUT_MS;
  const headers = headersFor(connection, secret);
  const dispatcher = pools.forOrigin(connection.origin, connection.outboundProxy);
  const pages: ModelPage[] = [];
  const seenCursors = new Set<string>();
  let after: string | null = null;
  let status = 0;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await dispatcher.request({
        method: 'GET',
        path: pagePath(connection, path, after),
        headers,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      status = res.statusCode;
      const text = await res.body.text();
      if (status < 200 || status >= 300) return { kind: 'refused', status, text: text.slice(0, ERROR_TEXT_BYTES) };
      const parsed = parseModelPage(connection.adapter.format, parseJson(text));
      // A broken later page is a failed listing too: a partial list must not replace a whole one.
      if (!parsed) return { kind: 'unparsable', status };
      pages.push(parsed);
      // A cursor seen before would loop forever: stop at what is known.
      if (parsed.nextAfter === null || seenCursors.has(parsed.nextAfter)) break;
      seenCursors.add(parsed.nextAfter);
      after = parsed.nextAfter;
    }
  } catch (error) {
    return { kind: 'unreachable', code: (error as { code?: string }).code ?? 'error' };
  }
  return { kind: 'listed', status, models: mergePages(pages) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** One line for the editor and the log: why there is no list this time. */
export function describeListingFailure(
  connection: RuntimeConnection,
  listing: Exclude<UpstreamListing, { kind: 'listed' }>,
): string {
  switch (listing.kind) {
    case 'refused':
      return `Upstream answered ${listing.status}`;
    case 'unparsable':
      return `Upstream answered ${listing.status} without a models list`;
    case 'unreachable':
      return `Could not reach ${connection.origin} (${listing.code})`;
    case 'unsupported':
      return listing.reason === 'no_secret' ? NO_SECRET : NO_MODELS_PATH;
  }
}
