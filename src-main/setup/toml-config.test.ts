import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { codexSetup } from './agents/codex';

const PATH = '/h/.codex/config.toml';
const [file] = codexSetup.files({ HOME: '/h' });
const plan = (current: string | null, proxyUrl = 'http://127.0.0.1:7431') =>
  file?.plan(current, { proxyUrl, key: 'lw-k', models: [] });

describe('ISSUE-23 §2 codex config.toml edits', () => {
  it('ISSUE-23: lives in $CODEX_HOME, else ~/.codex', () => {
    expect(file?.path).toBe(PATH);
    expect(codexSetup.files({ HOME: '/h', CODEX_HOME: '/c' })[0]?.path).toBe('/c/config.toml');
  });

  it('ISSUE-23: an existing leeway table (an old port) and another model_provider are replaced in place, comments kept', () => {
    const current = [
      '# top',
      'model_provider = "openai" # was',
      '',
      '[model_providers.leeway]',
      'base_url = "http://127.0.0.1:1111/v1"',
      'request_max_retries = 2',
      '',
      '# about tui',
      '[tui]',
      'theme = "dark"',
      '',
    ].join('\n');
    const next = plan(current);
    if (!next?.ok) throw new Error('refused');
    expect(next.value).toContain('# top');
    expect(next.value).toContain('# about tui');
    expect(next.value.match(/\[model_providers\.leeway\]/g)).toHaveLength(1);
    expect(parse(next.value)).toEqual({
      model_provider: 'leeway',
      model_providers: {
        leeway: { name: 'Leeway', base_url: 'http://127.0.0.1:7431/v1', env_key: 'LEEWAY_KEY', wire_api: 'responses' },
      },
      tui: { theme: 'dark' },
    });
  });

  it('ISSUE-23: a provider Leeway cannot edit safely (an inline table) is refused, not rewritten', () => {
    const next = plan('model_providers = { leeway = { name = "x", base_url = "http://old/v1" } }\n');
    expect(next?.ok).toBe(false);
    if (next && !next.ok) expect(next.error.message).toContain('cannot edit safely');
  });

  it('ISSUE-23: an array row starting with "[" is not taken for a table header', () => {
    const current = 'matrix = [\n  [1, 2],\n  [3, 4],\n]\n';
    const next = plan(current);
    if (!next?.ok) throw new Error('refused');
    expect(parse(next.value)).toMatchObject({
      matrix: [
        [1, 2],
        [3, 4],
      ],
      model_provider: 'leeway',
    });
  });
});
