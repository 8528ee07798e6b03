import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { BreakerRepo } from './breaker/breaker-repo';
import type { ConnectionHealthRepo } from './cooldown/health-repo';
import { buildCatalog } from '../routing/build-catalog';
import type { ConnectionHealth } from './cooldown/connection-health';
import { createResilienceControl } from './resilience-control';
import { resolveResilienceSettings } from './resilience-settings';
import { loadResilienceState } from './resilience-state';

describe('a terminal state decided outside the request path', () => {
  it('ISSUE-8: the stored last error of a sign-in that needs renewal names the connection', () => {
    const saved: ConnectionHealth[] = [];
    const health: ConnectionHealthRepo = { loadAll: () => new Map(), save: (_id, h) => void saved.push(h) };
    const breakers: BreakerRepo = { loadAll: () => new Map(), save: () => undefined, remove: () => undefined };
    const settings = resolveResilienceSettings({}, {});
    if (!settings.ok) throw new Error('default settings must resolve');
    const repos = { health, breakers };
    const view: ConnectionView = {
      id: 'id-max',
      name: 'max-1',
      kind: 'claude-oauth',
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
    };
    const catalog = buildCatalog([{ view, secret: null }], []);
    const control = createResilienceControl(
      loadResilienceState(settings.value, repos),
      repos,
      () => catalog,
      () => undefined,
    );
    control.markTerminal('id-max', 'needs_reauth', 'refresh token refused (invalid_grant)', 1_000);
    expect(saved.at(-1)?.lastError).toBe('max-1: refresh token refused (invalid_grant)');
  });
});
