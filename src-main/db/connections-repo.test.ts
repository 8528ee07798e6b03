import { readFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema, type ConnectionInput } from '../../src-shared/domain/connection';
import { createKeyFileSecretBox } from '../secrets/key-file-box';
import type { SecretBox } from '../secrets/secret-box';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { createConnectionsRepo, toView } from './connections-repo';

const API_KEY = 'sk-ant-api03-PLAINTEXT-SECRET-abcdefghijklmnopqrstuvwxyz-0001';
const draft = (input: ConnectionInput) => connectionInputSchema.parse(input);

/** A reversible fake box so in-memory tests can see what was sealed. */
const fakeBox: SecretBox = {
  kind: 'fake',
  seal: (plain) => 'sealed:' + Buffer.from(plain).toString('base64'),
  open: (sealed) => Buffer.from(sealed.replace(/^sealed:/, ''), 'base64').toString(),
};

let ids = 0;
const newId = () => `conn-${++ids}`;
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function memoryRepo() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  return { db, repo: createConnectionsRepo(db, fakeBox, newId) };
}

describe('connections repo', () => {
  it('PROD-5: round-trips every field and computes the hint and effective base URL', () => {
    const { repo } = memoryRepo();
    const saved = repo.upsert(
      draft({
        name: 'work-anthropic',
        kind: 'anthropic',
        secret: { type: 'api-key', apiKey: API_KEY },
        models: ['claude-sonnet-4-5'],
        modelAliases: { sonnet: 'claude-sonnet-4-5' },
        priority: 3,
        enabled: false,
        maxConcurrent: 4,
        disableCooling: true,
        providerSpecificData: { lowPriorityMode: true, nested: { a: 1 } },
      }),
      1_000,
    );
    expect(saved).toEqual({
      id: saved.id,
      name: 'work-anthropic',
      kind: 'anthropic',
      baseUrl: null,
      effectiveBaseUrl: 'https://api.anthropic.com',
      models: ['claude-sonnet-4-5'],
      modelAliases: { sonnet: 'claude-sonnet-4-5' },
      priority: 3,
      enabled: false,
      maxConcurrent: 4,
      disableCooling: true,
      providerSpecificData: { lowPriorityMode: true, nested: { a: 1 } },
      secretHint: 'sk-ant…0001',
      secret: { type: 'api-key', apiKey: API_KEY },
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    expect(repo.getByName('work-anthropic')).toEqual(saved);
    expect(repo.getById(saved.id)).toEqual(saved);
    expect(repo.getByName('nope')).toBeNull();
    expect(repo.getById('nope')).toBeNull();
  });

  it('PROD-5: strips trailing slashes from the effective base URL and keeps the override', () => {
    const { repo } = memoryRepo();
    const saved = repo.upsert(
      draft({ name: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1/' }),
      1,
    );
    expect(saved.baseUrl).toBe('http://127.0.0.1:11434/v1/');
    expect(saved.effectiveBaseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(saved.secret).toBeNull();
    expect(saved.secretHint).toBeNull();
  });

  it('PROD-5: an update without a secret keeps the stored secret, id and creation time', () => {
    const { repo } = memoryRepo();
    const first = repo.upsert(
      draft({
        name: 'oauth',
        kind: 'claude-oauth',
        secret: { type: 'oauth', accessToken: 'sk-ant-oat01-ACCESS-TOKEN-xyz9', refreshToken: 'r-1' },
      }),
      10,
    );
    const second = repo.upsert(draft({ name: 'oauth', kind: 'claude-oauth', priority: 7 }), 20);
    expect(second.id).toBe(first.id);
    expect(second.createdAt).toBe(10);
    expect(second.updatedAt).toBe(20);
    expect(second.priority).toBe(7);
    expect(second.secret).toEqual({
      type: 'oauth',
      accessToken: 'sk-ant-oat01-ACCESS-TOKEN-xyz9',
      refreshToken: 'r-1',
    });
    expect(second.secretHint).toBe(first.secretHint);
  });

  it('PROD-5: an update with a new secret replaces it and its hint', () => {
    const { repo } = memoryRepo();
    repo.upsert(
      draft({ name: 'oa', kind: 'openai', secret: { type: 'api-key', apiKey: 'sk-proj-old-key-0000000-padding' } }),
      1,
    );
    const updated = repo.upsert(
      draft({ name: 'oa', kind: 'openai', secret: { type: 'api-key', apiKey: 'sk-proj-new-key-padding-9999999' } }),
      2,
    );
    expect(updated.secret).toEqual({ type: 'api-key', apiKey: 'sk-proj-new-key-padding-9999999' });
    expect(updated.secretHint).toBe('sk-pro…9999');
  });

  it('PROD-5: names are unique: upserting the same name twice updates one row', () => {
    const { db, repo } = memoryRepo();
    repo.upsert(draft({ name: 'same', kind: 'openai' }), 1);
    repo.upsert(draft({ name: 'same', kind: 'anthropic' }), 2);
    expect(repo.list().map((c) => [c.name, c.kind])).toEqual([['same', 'anthropic']]);
    const raw = db.prepare(
      "INSERT INTO connections (id, name, kind, priority, enabled, disable_cooling, created_at, updated_at) VALUES ('x', 'same', 'openai', 1, 1, 0, 0, 0)",
    );
    expect(() => raw.run()).toThrow(/UNIQUE constraint failed: connections.name/);
  });

  it('PROD-5: lists by priority, then name, and removes by name', () => {
    const { repo } = memoryRepo();
    repo.upsert(draft({ name: 'b', kind: 'openai', priority: 2 }), 1);
    repo.upsert(draft({ name: 'c', kind: 'openai', priority: 1 }), 1);
    repo.upsert(draft({ name: 'a', kind: 'openai', priority: 2 }), 1);
    expect(repo.list().map((c) => c.name)).toEqual(['c', 'a', 'b']);
    expect(repo.remove('a')).toBe(true);
    expect(repo.remove('a')).toBe(false);
    expect(repo.list().map((c) => c.name)).toEqual(['c', 'b']);
  });

  it('PROD-18: toView drops the secret but keeps the hint', () => {
    const { repo } = memoryRepo();
    const stored = repo.upsert(
      draft({ name: 'x', kind: 'anthropic', secret: { type: 'api-key', apiKey: API_KEY } }),
      1,
    );
    const view = toView(stored);
    expect(view).not.toHaveProperty('secret');
    expect(view.secretHint).toBe('sk-ant…0001');
    expect(JSON.stringify(view)).not.toContain(API_KEY);
  });

  it('PROD-3: secrets are sealed at rest: the plain key is in neither the database nor its WAL', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    const box = createKeyFileSecretBox(temp.dir);
    const repo = createConnectionsRepo(temp.db, box);
    repo.upsert(draft({ name: 'prod', kind: 'anthropic', secret: { type: 'api-key', apiKey: API_KEY } }), 1);
    expect(repo.getByName('prod')?.secret).toEqual({ type: 'api-key', apiKey: API_KEY });

    const sealed =
      temp.db.prepare<[], { secret_sealed: string }>('SELECT secret_sealed FROM connections').get()?.secret_sealed ??
      '';
    expect(sealed.startsWith('v1:')).toBe(true);

    const files = [temp.file, `${temp.file}-wal`].filter((file) => existsSync(file));
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    expect(bytes.includes(sealed)).toBe(true); // the row did reach the files we are searching
    expect(bytes.includes(API_KEY)).toBe(false);
    expect(bytes.includes('PLAINTEXT-SECRET')).toBe(false);
  });
});
