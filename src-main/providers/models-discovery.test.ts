import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import {
  currentModels,
  isDue,
  MAX_DISCOVERED_MODELS,
  mergePages,
  modelsChanged,
  nextEntry,
  parseModelPage,
  REFRESH_INTERVAL_MS,
  RETRY_AFTER_FAILURE_MS,
  type DiscoveryEntry,
} from './models-discovery';

const BASE = 'https://api.example.test/v1';
const T0 = 1_800_000_000_000;

function view(extra: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id: 'c1',
    name: 'glm',
    kind: 'openai-compatible',
    baseUrl: BASE,
    effectiveBaseUrl: BASE,
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

const listed = (...ids: string[]) =>
  ({ kind: 'listed', models: ids.map((id) => ({ id, displayName: null, createdAt: null })) }) as const;

describe('model discovery: reading upstream lists', () => {
  it("reads Anthropic's paginated list: ids, display names, created_at, and the next page's after_id", () => {
    const page = parseModelPage('anthropic', {
      data: [
        { type: 'model', id: 'claude-opus-4-7', display_name: 'Claude Opus 4.7', created_at: '2025-11-01T00:00:00Z' },
        { type: 'model', id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: 'not a date' },
      ],
      has_more: true,
      first_id: 'claude-opus-4-7',
      last_id: 'claude-haiku-4-5',
    });
    expect(page).toEqual({
      models: [
        { id: 'claude-opus-4-7', displayName: 'Claude Opus 4.7', createdAt: Date.parse('2025-11-01T00:00:00Z') },
        { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5', createdAt: null },
      ],
      nextAfter: 'claude-haiku-4-5',
    });
    expect(
      parseModelPage('anthropic', { data: [], has_more: false, first_id: null, last_id: null })?.nextAfter,
    ).toBeNull();
  });

  it("reads OpenAI's list (created in seconds) and skips items without a usable id", () => {
    const page = parseModelPage('openai', {
      object: 'list',
      data: [
        { id: 'glm-4.6', object: 'model', created: 1_715_367_049, owned_by: 'z-ai' },
        { object: 'model' },
        { id: '' },
        { id: 'bad\u0007id' },
        { id: 'x'.repeat(300) },
        'not an object',
      ],
    });
    expect(page).toEqual({
      models: [{ id: 'glm-4.6', displayName: null, createdAt: 1_715_367_049_000 }],
      nextAfter: null,
    });
  });

  it('a body that is no list is refused (null), not read as an empty list', () => {
    expect(parseModelPage('openai', { error: { message: 'nope' } })).toBeNull();
    expect(parseModelPage('anthropic', null)).toBeNull();
    expect(parseModelPage('anthropic', 'text')).toBeNull();
  });

  it('pages merge in order, each id once, bounded', () => {
    const p = (ids: string[]) => ({
      models: ids.map((id) => ({ id, displayName: null, createdAt: null })),
      nextAfter: null,
    });
    expect(mergePages([p(['a', 'b']), p(['b', 'c'])]).map((m) => m.id)).toEqual(['a', 'b', 'c']);
    const many = p(Array.from({ length: MAX_DISCOVERED_MODELS + 10 }, (_, i) => `m${i}`));
    expect(mergePages([many])).toHaveLength(MAX_DISCOVERED_MODELS);
  });
});

describe('model discovery: when to ask and what a failure keeps', () => {
  it('only connections serving any model are asked: never yet, hourly after a success, sooner after a failure', () => {
    expect(isDue(view(), undefined, T0)).toBe(true);
    expect(isDue(view({ models: ['glm-4.6'] }), undefined, T0)).toBe(false);
    expect(isDue(view({ enabled: false }), undefined, T0)).toBe(false);
    const ok = nextEntry(undefined, { id: 'c1', baseUrl: BASE }, listed('glm-4.6'), T0);
    expect(isDue(view(), ok, T0 + REFRESH_INTERVAL_MS - 1)).toBe(false);
    expect(isDue(view(), ok, T0 + REFRESH_INTERVAL_MS)).toBe(true);
    const failed = nextEntry(ok, { id: 'c1', baseUrl: BASE }, { kind: 'failed', error: 'HTTP 503' }, T0);
    expect(isDue(view(), failed, T0 + RETRY_AFTER_FAILURE_MS - 1)).toBe(false);
    expect(isDue(view(), failed, T0 + RETRY_AFTER_FAILURE_MS)).toBe(true);
    // Pointed at another upstream: its list is someone else's, ask again now.
    expect(isDue(view({ effectiveBaseUrl: 'https://other.test/v1' }), ok, T0 + 1)).toBe(true);
  });

  it('a failed refresh keeps the last list (and when it was fetched), recording the error', () => {
    const ok = nextEntry(undefined, { id: 'c1', baseUrl: BASE }, listed('glm-4.6', 'glm-4.5'), T0);
    const failed = nextEntry(
      ok,
      { id: 'c1', baseUrl: BASE },
      { kind: 'failed', error: 'Upstream answered 500' },
      T0 + 5,
    );
    expect(failed).toMatchObject({ fetchedAt: T0, attemptedAt: T0 + 5, lastError: 'Upstream answered 500' });
    expect(failed.models.map((m) => m.id)).toEqual(['glm-4.6', 'glm-4.5']);
    expect(modelsChanged(ok, failed)).toBe(false);
    const moved = nextEntry(ok, { id: 'c1', baseUrl: 'https://other.test/v1' }, { kind: 'failed', error: 'x' }, T0 + 6);
    expect(moved.models).toEqual([]);
  });

  it('the listed models are the entry of this connection as configured now', () => {
    const entry: DiscoveryEntry = nextEntry(undefined, { id: 'c1', baseUrl: BASE }, listed('glm-4.6'), T0);
    expect(currentModels(view(), entry).map((m) => m.id)).toEqual(['glm-4.6']);
    expect(currentModels(view({ models: ['own'] }), entry)).toEqual([]);
    expect(currentModels(view({ effectiveBaseUrl: 'https://other.test/v1' }), entry)).toEqual([]);
    expect(modelsChanged(undefined, entry)).toBe(true);
    expect(modelsChanged(entry, nextEntry(entry, { id: 'c1', baseUrl: BASE }, listed('glm-4.6'), T0 + 1))).toBe(false);
  });
});
