import { describe, expect, it } from 'vitest';
import type { DiscoveredModel } from '../../providers/models-discovery';
import { modelsBody } from './models-response';

const ids = ['a-model', 'b-model', 'c-model', 'd-model', 'e-model'];
const anthropic = (search = '', details?: ReadonlyMap<string, DiscoveredModel>) =>
  JSON.parse(modelsBody('anthropic', ids, { search, ...(details ? { details } : {}) })) as {
    data: { type: string; id: string; display_name: string; created_at: string }[];
    has_more: boolean;
    first_id: string | null;
    last_id: string | null;
  };

describe('GET /v1/models bodies (issue 13 §5)', () => {
  it("the Anthropic shape is Anthropic's list: typed items, has_more, first_id, last_id", () => {
    const details = new Map([
      ['b-model', { id: 'b-model', displayName: 'B Model', createdAt: Date.parse('2025-09-29T10:00:00.250Z') }],
    ]);
    const body = anthropic('', details);
    expect(body.data).toHaveLength(5);
    expect(body.data[0]).toEqual({
      type: 'model',
      id: 'a-model',
      display_name: 'a-model',
      created_at: '1970-01-01T00:00:00Z',
    });
    expect(body.data[1]).toEqual({
      type: 'model',
      id: 'b-model',
      display_name: 'B Model',
      created_at: '2025-09-29T10:00:00Z',
    });
    expect(body).toMatchObject({ has_more: false, first_id: 'a-model', last_id: 'e-model' });
  });

  it('pages by limit / after_id / before_id like the Anthropic API, so its SDK iterates the whole list', () => {
    expect(anthropic('?limit=2')).toMatchObject({ has_more: true, first_id: 'a-model', last_id: 'b-model' });
    const second = anthropic('?limit=2&after_id=b-model');
    expect(second.data.map((m) => m.id)).toEqual(['c-model', 'd-model']);
    expect(second.has_more).toBe(true);
    expect(anthropic('?limit=2&after_id=d-model')).toMatchObject({
      has_more: false,
      first_id: 'e-model',
      last_id: 'e-model',
    });
    expect(anthropic('?limit=2&before_id=d-model').data.map((m) => m.id)).toEqual(['b-model', 'c-model']);
    expect(anthropic('?limit=1000').data).toHaveLength(5);
    expect(anthropic('?after_id=unknown')).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it('the OpenAI shape is a plain list, created in seconds when an upstream said', () => {
    const details = new Map([['a-model', { id: 'a-model', displayName: null, createdAt: 1_715_367_049_000 }]]);
    const body = JSON.parse(modelsBody('openai', ids, { search: '?limit=1', details })) as {
      object: string;
      data: { id: string; object: string; created: number; owned_by: string }[];
    };
    expect(body.object).toBe('list');
    expect(body.data).toHaveLength(5);
    expect(body.data[0]).toEqual({ id: 'a-model', object: 'model', created: 1_715_367_049, owned_by: 'leeway' });
  });
});
