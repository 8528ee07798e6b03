import { Registry } from 'prom-client';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import type { Catalog } from '../kernel/catalog';
import { createRequestMetrics } from './request-metrics';
import { createStateMetrics, type ScrapeSources } from './state-metrics';

export interface MetricsText {
  contentType: string;
  body: string;
}

/**
 * Leeway's Prometheus metrics in a Registry of their own (never prom-client's global one, so two
 * cores in one process never share series): per-request counters fed by `observe`, scrape-time
 * gauges read by `render`.
 */
export function createMetrics(catalog: () => Catalog | null, sources: ScrapeSources, now: () => number) {
  const registry = new Registry();
  const requests = createRequestMetrics(registry, catalog);
  const state = createStateMetrics(registry, sources);
  return {
    observe: (entry: NewRequestLogEntry): void => requests.observe(entry),
    /** The text `GET /metrics` answers. */
    async render(): Promise<MetricsText> {
      await state.read(now());
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
