import type { ConnectionSecret, ConnectionView } from '../../src-shared/domain/connection';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import { type Catalog } from '../kernel/catalog';
import { buildCatalog } from '../routing/build-catalog';

/** Test fixtures for the observability folder: a catalog and activity entries. */
export function view(name: string, extra: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind: 'anthropic',
    baseUrl: null,
    effectiveBaseUrl: 'https://api.anthropic.com',
    models: [],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: null,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

export function catalogOf(
  connections: { view: ConnectionView; secret: ConnectionSecret | null; outboundProxy?: string }[],
  comboNames: string[] = [],
): Catalog {
  return buildCatalog(
    connections,
    comboNames.map((name) => ({
      id: `combo-${name}`,
      name,
      targets: connections.map((c) => ({ connection: c.view.name, model: null })),
      strategy: 'priority' as const,
      createdAt: 0,
      updatedAt: 0,
    })),
  );
}

export function entry(extra: Partial<NewRequestLogEntry> = {}): NewRequestLogEntry {
  return {
    ts: 1_000,
    keyName: 'claude-code',
    apiFormat: 'anthropic',
    endpoint: 'messages',
    model: 'main',
    connection: 'backup',
    status: 200,
    stream: false,
    latencyMs: 812,
    ttfbMs: 120,
    inputTokens: 1200,
    outputTokens: 340,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
    ...extra,
  };
}
