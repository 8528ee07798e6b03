import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from './load-config';

/** The shape the issue promises works as written. */
const ISSUE_EXAMPLE = {
  connections: [
    {
      name: 'max-1',
      kind: 'claude-oauth',
      accessToken: 'sk-ant-oat01-aaaa',
      refreshToken: 'sk-ant-ort01-bbbb',
      expiresAt: 1767225600000,
      lowPriorityMode: false,
      autoLimitReset: false,
    },
    { name: 'team-key', kind: 'anthropic', apiKey: 'sk-ant-api03-cccc', priority: 2 },
    {
      name: 'glm',
      kind: 'openai-compatible',
      baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
      apiKey: 'glm-dddd',
      models: ['glm-4.6'],
      maxConcurrent: 1,
    },
  ],
  keys: [{ name: 'claude-code', key: 'lw-0123456789abcdef' }],
  combos: [{ name: 'main', targets: ['max-1', { connection: 'team-key', model: 'claude-sonnet-4-5' }] }],
};

describe('declarative config', () => {
  it('PROD-5: accepts the documented example and converts secrets and Claude opt-ins', () => {
    const result = parseConfig(JSON.stringify(ISSUE_EXAMPLE), new Set());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [max, team, glm] = result.value.connections;
    expect(max).toMatchObject({
      kind: 'claude-oauth',
      secret: {
        type: 'oauth',
        accessToken: 'sk-ant-oat01-aaaa',
        refreshToken: 'sk-ant-ort01-bbbb',
        expiresAt: 1767225600000,
      },
      providerSpecificData: { lowPriorityMode: false, autoLimitReset: false },
      baseUrl: null,
    });
    expect(team).toMatchObject({
      kind: 'anthropic',
      priority: 2,
      secret: { type: 'api-key', apiKey: 'sk-ant-api03-cccc' },
    });
    expect(glm).toMatchObject({
      models: ['glm-4.6'],
      maxConcurrent: 1,
      baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    });
    expect(result.value.combos[0]?.targets).toEqual([
      { connection: 'max-1', model: null },
      { connection: 'team-key', model: 'claude-sonnet-4-5' },
    ]);
  });

  it('PROD-5: lists every problem with its path, never a secret value', () => {
    const bad = {
      connections: [
        { name: 'a', kind: 'anthropic', apiKey: 'sk-ant-VERYSECRET', priority: 'high' },
        { name: 'b', kind: 'openai-compatible', apiKey: 'x' },
        { name: 'c', kind: 'claude-oauth', apiKey: 'sk-ant-VERYSECRET2' },
        { name: 'a', kind: 'nope' },
      ],
      keys: [{ name: 'k', key: 'short' }],
      combos: [{ name: 'm', targets: ['ghost'] }],
      extra: true,
    };
    const result = parseConfig(JSON.stringify(bad), new Set());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'connections.0.priority',
        'connections.3.kind',
        'keys.0.key',
        'extra',
        'combos.0.targets.0',
      ]),
    );
    expect(JSON.stringify(result.problems)).not.toContain('VERYSECRET');
  });

  it('PROD-5: reports semantic problems (missing baseUrl, wrong secret for the kind, unknown combo target) together', () => {
    const result = parseConfig(
      JSON.stringify({
        connections: [
          { name: 'b', kind: 'openai-compatible', apiKey: 'x' },
          { name: 'c', kind: 'claude-oauth', apiKey: 'sk-ant-VERYSECRET2' },
        ],
        combos: [{ name: 'm', targets: ['ghost', 'b'] }],
      }),
      new Set(),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: 'connections.0.baseUrl', message: 'is required for openai-compatible connections' },
        expect.objectContaining({ path: 'connections.1.apiKey' }),
        { path: 'combos.0.targets.0', message: 'unknown connection "ghost"' },
      ]),
    );
  });

  it('PROD-5: a combo may target a connection that exists only in the database', () => {
    const result = parseConfig(JSON.stringify({ combos: [{ name: 'm', targets: ['stored'] }] }), new Set(['stored']));
    expect(result.ok).toBe(true);
  });

  it('PROD-5: invalid JSON is one problem naming the file position', () => {
    const result = parseConfig('{ "connections": [ }', new Set());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]?.message).toMatch(/not valid JSON/);
  });

  it('ISSUE-8: a syntax error on a line holding a secret names line and column and quotes none of the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-config-'));
    try {
      const file = join(dir, 'config.json');
      // The key is missing its opening quote: JSON.parse's own message would quote it back.
      writeFileSync(
        file,
        '{\n  "connections": [\n    { "name": "a", "kind": "anthropic", "apiKey": sk-ant-api03-TOPSECRET" }\n  ]\n}\n',
      );
      const result = loadConfig(file, new Set(), undefined, {});
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.message).toMatch(/^not valid JSON at line 3, column 51: /);
      expect(JSON.stringify(result.problems)).not.toMatch(/TOPSECRET|sk-ant|apiKey/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
