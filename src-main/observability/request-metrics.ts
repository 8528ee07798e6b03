import type { Registry } from 'prom-client';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import type { Catalog } from '../kernel/catalog';
import { boundedLabel, cache1, cache2, cache3 } from './label-cache';
import { counterCells, histogramCells } from './metric-cells';
import { createMetricLabels } from './metric-labels';
import { isServedHop } from './request-line';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const TTFB_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

/**
 * The per-request counters and histograms (issue 13 §2), fed from the activity entry. Each label
 * combination's cell is found through nested maps (label-cache) and holds plain numbers
 * (metric-cells); labels come from a bounded set (configured connections and models, else
 * "other"). A request costs a few map lookups and additions, no allocation.
 */
export function createRequestMetrics(registry: Registry, catalog: () => Catalog | null) {
  const labels = createMetricLabels(catalog);
  const reason = boundedLabel(32);
  const direction = boundedLabel(16);

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    counterCells(registry, { name, help, labelNames });
  const requests = counter(
    'leeway_requests_total',
    'Requests answered, by the connection that served (none: refused or every attempt failed), model and HTTP status',
    ['connection', 'model', 'status'],
  );
  const latency = histogramCells(registry, {
    name: 'leeway_request_duration_seconds',
    help: 'Time from the request reaching Leeway to its last byte',
    labelNames: ['connection'],
    buckets: LATENCY_BUCKETS,
  });
  const ttfb = histogramCells(registry, {
    name: 'leeway_request_ttfb_seconds',
    help: "Time to the upstream answer's first byte, for served requests",
    labelNames: ['connection'],
    buckets: TTFB_BUCKETS,
  });
  const failovers = counter('leeway_failovers_total', 'Attempts failed over from, by the connection left and why', [
    'connection',
    'reason',
  ]);
  const holds = counter(
    'leeway_holds_total',
    'Requests held to wait out a short cooldown before they were served or refused',
    ['connection'],
  );
  const heldSeconds = counter('leeway_held_seconds_total', 'Seconds requests spent held for short cooldowns', [
    'connection',
  ]);
  const translations = counter(
    'leeway_translated_requests_total',
    'Requests translated between API formats, by connection and client->upstream direction',
    ['connection', 'direction'],
  );
  const tokens = counter('leeway_tokens_total', 'Tokens the upstreams reported, by connection and kind', [
    'connection',
    'kind',
  ]);

  const cacheLost = counter(
    'leeway_cache_tokens_lost_total',
    'Warm prompt-cache input tokens thrown away when a session moved, by the connection that served it next (issue 24 §3)',
    ['connection'],
  );
  const cacheLostUsd = counter(
    'leeway_cache_lost_usd_total',
    'What rebuilding those caches costs over reading them, in USD by the price table',
    ['connection'],
  );
  const cacheLostChild = cache1((connection) => cacheLost({ connection }));
  const cacheLostUsdChild = cache1((connection) => cacheLostUsd({ connection }));
  const requestChild = cache3((connection, model, status) => requests({ connection, model, status }));
  const latencyChild = cache1((connection) => latency({ connection }));
  const ttfbChild = cache1((connection) => ttfb({ connection }));
  const failoverChild = cache2((connection, reason) => failovers({ connection, reason }));
  const holdChild = cache1((connection) => holds({ connection }));
  const heldChild = cache1((connection) => heldSeconds({ connection }));
  const translatedChild = cache2((connection, direction) => translations({ connection, direction }));
  const tokenChild = cache2((connection, kind) => tokens({ connection, kind }));
  const addTokens = (connection: string, kind: string, n: number | null): void => {
    if (n !== null && n > 0) tokenChild(connection, kind).value += n;
  };

  return {
    observe(entry: NewRequestLogEntry): void {
      labels.refresh();
      const connection = labels.connection(entry.connection);
      requestChild(connection, labels.model(entry.model), entry.status).value++;
      latencyChild(connection).observe(entry.latencyMs / 1000);
      if (entry.ttfbMs !== null) ttfbChild(connection).observe(entry.ttfbMs / 1000);
      const hops = entry.failover;
      for (let i = 0; i < hops.length; i++) {
        const hop = hops[i];
        // The answering attempt may be listed last; it is no failover.
        if (hop === undefined || (i === hops.length - 1 && isServedHop(hop, entry))) continue;
        failoverChild(labels.connection(hop.connection), reason(hop.reason)).value++;
      }
      if (entry.heldMs) {
        holdChild(connection).value++;
        heldChild(connection).value += entry.heldMs / 1000;
      }
      if (entry.translated) translatedChild(connection, direction(entry.translated)).value++;
      addTokens(connection, 'input', entry.inputTokens);
      addTokens(connection, 'output', entry.outputTokens);
      addTokens(connection, 'cache_read', entry.cacheReadTokens);
      addTokens(connection, 'cache_write', entry.cacheWriteTokens);
      if (entry.cacheLostTokens) {
        cacheLostChild(connection).value += entry.cacheLostTokens;
        cacheLostUsdChild(connection).value += entry.cacheLostUsd ?? 0;
      }
    },
  };
}
