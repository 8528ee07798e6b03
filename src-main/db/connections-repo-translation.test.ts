import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema, type ConnectionInput } from '../../src-shared/domain/connection';
import type { SecretBox } from '../secrets/secret-box';
import { createMemoryDb } from '../testing/temp-db';
import { createConnectionsRepo, toView } from './connections-repo';

const box: SecretBox = { kind: 'fake', seal: (plain) => plain, open: (sealed) => sealed };
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function repo() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  let n = 0;
  return { db, repo: createConnectionsRepo(db, box, () => `c-${++n}`) };
}
const draft = (extra: Partial<ConnectionInput>) =>
  connectionInputSchema.parse({
    name: 'glm',
    kind: 'openai-compatible',
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    secret: { type: 'api-key', apiKey: 'glm-0123456789abcdefghijklmnop' },
    ...extra,
  });

type Columns = { accept_translated: number; responses_api: number | null };
const columns = (db: ReturnType<typeof createMemoryDb>): Columns | undefined =>
  db.prepare<[], Columns>("SELECT accept_translated, responses_api FROM connections WHERE name = 'glm'").get();

describe('connections repo: translation switches', () => {
  it('ISSUE-12: a connection saved without the switches accepts translated requests and decides Responses by kind', () => {
    const { db, repo: r } = repo();
    const saved = r.upsert(draft({}), 1);
    expect(columns(db)).toEqual({ accept_translated: 1, responses_api: null });
    // The defaults read back absent, as ConnectionView documents them.
    expect('acceptTranslated' in saved).toBe(false);
    expect('responsesApi' in saved).toBe(false);
  });

  it('ISSUE-12: refusing translation and forcing the Responses API round-trip through the row and the view', () => {
    const { db, repo: r } = repo();
    const saved = r.upsert(draft({ acceptTranslated: false, responsesApi: true }), 1);
    expect(columns(db)).toEqual({ accept_translated: 0, responses_api: 1 });
    expect(saved).toMatchObject({ acceptTranslated: false, responsesApi: true });
    expect(r.getByName('glm')).toMatchObject({ acceptTranslated: false, responsesApi: true });
    expect(toView(saved)).toMatchObject({ acceptTranslated: false, responsesApi: true });

    const translate = r.upsert(draft({ acceptTranslated: false, responsesApi: false }), 2);
    expect(columns(db)).toEqual({ accept_translated: 0, responses_api: 0 });
    expect(translate.responsesApi).toBe(false);
  });

  it('ISSUE-12: an edit that sends no switch (absent = default) puts both back to their defaults', () => {
    const { db, repo: r } = repo();
    r.upsert(draft({ acceptTranslated: false, responsesApi: true }), 1);
    const reset = r.upsert(draft({ priority: 2, responsesApi: null }), 2);
    expect(columns(db)).toEqual({ accept_translated: 1, responses_api: null });
    expect(reset.acceptTranslated).toBeUndefined();
    expect(reset.responsesApi).toBeUndefined();
  });

  it('ISSUE-12: the columns refuse anything but 0/1 (and NULL for the Responses switch)', () => {
    const { db, repo: r } = repo();
    r.upsert(draft({}), 1);
    expect(() => db.prepare("UPDATE connections SET accept_translated = 2 WHERE name = 'glm'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE connections SET accept_translated = NULL WHERE name = 'glm'").run()).toThrow(
      /NOT NULL/,
    );
    expect(() => db.prepare("UPDATE connections SET responses_api = 3 WHERE name = 'glm'").run()).toThrow(/CHECK/);
  });
});
