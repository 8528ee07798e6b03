import { describe, expect, it } from 'vitest';
import type { ConnectionKind, ConnectionView } from '../../src-shared/domain/connection';
import { buildCatalog } from './build-catalog';
import { listModels, resolveTargets } from './resolve-targets';
import { wireFit } from '../kernel/wire-fit';

function view(
  name: string,
  kind: ConnectionKind,
  models: string[],
  extra: Partial<ConnectionView> = {},
): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind,
    baseUrl: kind === 'openai-compatible' ? 'https://glm.example/v4' : null,
    effectiveBaseUrl: 'https://example.test',
    models,
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

const key = { type: 'api-key', apiKey: 'sk-test' } as const;
const names = (r: ReturnType<typeof resolveTargets>) =>
  r.kind === 'targets' ? r.targets.map((t) => t.connection.view.name) : [];

describe('routing across wire formats (issue 12 §4)', () => {
  const catalog = buildCatalog(
    [
      { view: view('glm', 'openai-compatible', ['glm-4.6', 'shared']), secret: key },
      { view: view('claude', 'anthropic', ['claude-sonnet-4-5', 'shared']), secret: key },
      { view: view('strict', 'openai-compatible', ['strict-model'], { acceptTranslated: false }), secret: key },
      { view: view('oai', 'openai', ['gpt-5']), secret: key },
    ],
    [],
  );

  it('a model only an OpenAI-format connection lists is served to an Anthropic client (translated)', () => {
    expect(names(resolveTargets(catalog, 'glm-4.6', 'anthropic'))).toEqual(['glm']);
    expect(names(resolveTargets(catalog, 'claude-sonnet-4-5', 'openai'))).toEqual(['claude']);
  });

  it('same-format connections come first when both formats list a model', () => {
    expect(names(resolveTargets(catalog, 'shared', 'anthropic'))).toEqual(['claude', 'glm']);
    expect(names(resolveTargets(catalog, 'shared', 'openai'))).toEqual(['glm', 'claude']);
  });

  it('a connection with "accept translated requests" off is excluded for the other format, with the reason', () => {
    const r = resolveTargets(catalog, 'strict-model', 'anthropic');
    expect(r).toMatchObject({
      kind: 'targets',
      targets: [],
      excluded: [{ connection: 'strict', reason: 'wrong_api_format' }],
    });
    expect(names(resolveTargets(catalog, 'strict-model', 'openai'))).toEqual(['strict']);
  });

  it('/v1/models lists what either shape can use, without connections that refuse translation', () => {
    expect(listModels(catalog, 'anthropic')).toEqual(['claude-sonnet-4-5', 'glm-4.6', 'gpt-5', 'shared']);
    expect(listModels(catalog, 'openai')).toContain('strict-model');
  });

  it('the Responses API is native on OpenAI itself and on a marked connection; translated elsewhere', () => {
    const [glm, claude, strict, oai] = ['glm', 'claude', 'strict', 'oai'].map((n) => catalog.byName.get(n));
    expect(oai && wireFit(oai, 'responses')).toBe('native');
    expect(glm && wireFit(glm, 'responses')).toBe('translated');
    expect(claude && wireFit(claude, 'responses')).toBe('translated');
    expect(strict && wireFit(strict, 'responses')).toBeNull();
    const marked = buildCatalog(
      [{ view: view('or', 'openai-compatible', [], { responsesApi: true }), secret: key }],
      [],
    ).connections[0];
    expect(marked && wireFit(marked, 'responses')).toBe('native');
    const off = buildCatalog([{ view: view('o2', 'openai', [], { responsesApi: false }), secret: key }], [])
      .connections[0];
    expect(off && wireFit(off, 'responses')).toBe('translated');
  });

  it('any-model connections of the other format serve only when none of the client format exists', () => {
    const both = buildCatalog(
      [
        { view: view('any-claude', 'claude-oauth', []), secret: { type: 'oauth', accessToken: 't' } },
        { view: view('any-oai', 'openai', []), secret: key },
      ],
      [],
    );
    expect(names(resolveTargets(both, 'claude-opus-4-1', 'anthropic'))).toEqual(['any-claude']);
    expect(names(resolveTargets(both, 'gpt-5', 'openai'))).toEqual(['any-oai']);
    const onlyOpenai = buildCatalog([{ view: view('any-oai', 'openai', []), secret: key }], []);
    expect(names(resolveTargets(onlyOpenai, 'gpt-5', 'anthropic'))).toEqual(['any-oai']);
  });

  it('a combo may mix formats: its order is kept, each target translated or not', () => {
    const mixed = buildCatalog(
      [
        { view: view('claude', 'anthropic', ['claude-sonnet-4-5']), secret: key },
        { view: view('glm', 'openai-compatible', ['glm-4.6']), secret: key },
      ],
      [
        {
          id: 'c',
          name: 'fallback',
          targets: [
            { connection: 'glm', model: 'glm-4.6' },
            { connection: 'claude', model: 'claude-sonnet-4-5' },
          ],
          strategy: 'priority',
          createdAt: 0,
          updatedAt: 0,
        },
      ],
    );
    expect(names(resolveTargets(mixed, 'fallback', 'anthropic'))).toEqual(['glm', 'claude']);
  });
});
