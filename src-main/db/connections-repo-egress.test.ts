import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema, maskProxyUrl, type ConnectionInput } from '../../src-shared/domain/connection';
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
    name: 'zen',
    kind: 'openai-compatible',
    baseUrl: 'https://opencode.ai/zen/v1',
    secret: { type: 'api-key', apiKey: 'sk-zen-0123456789abcdefghijklmn' },
    ...extra,
  });

const PROXY = 'http://alice:s3cret@proxy.example:8080';

describe('connections repo: outbound proxy and egress IP', () => {
  it('EGRESS-1: the proxy credentials stay in the core; every view holds the masked form only', () => {
    const { repo: r } = repo();
    const saved = r.upsert(draft({ outboundProxyUrl: PROXY }), 1);
    expect(saved.outboundProxy).toBe(PROXY);
    expect(saved.outboundProxyUrl).toBe('http://***@proxy.example:8080');
    expect(JSON.stringify(toView(saved))).not.toContain('s3cret');
    expect(JSON.stringify(toView(saved))).not.toContain('alice');
    expect(maskProxyUrl('http://proxy.example:3128')).toBe('http://proxy.example:3128');
  });

  it('EGRESS-1: saving the masked form back keeps the stored URL; a new URL replaces it; null clears it', () => {
    const { repo: r } = repo();
    r.upsert(draft({ outboundProxyUrl: PROXY }), 1);
    expect(r.upsert(draft({ outboundProxyUrl: 'http://***@proxy.example:8080' }), 2).outboundProxy).toBe(PROXY);
    expect(r.upsert(draft({ outboundProxyUrl: 'http://other.example:3128' }), 3).outboundProxy).toBe(
      'http://other.example:3128',
    );
    const cleared = r.upsert(draft({ outboundProxyUrl: null }), 4);
    expect(cleared.outboundProxy).toBeUndefined();
    expect(cleared.outboundProxyUrl).toBeUndefined();
  });

  it('EGRESS-4: the recorded egress IP is kept across edits and dropped when the way out changes', () => {
    const { repo: r } = repo();
    const saved = r.upsert(draft({ outboundProxyUrl: PROXY }), 1);
    expect(r.recordEgressIp(saved.id, '198.51.100.7', 5)).toBe(true);
    expect(r.upsert(draft({ outboundProxyUrl: PROXY, priority: 3 }), 6)).toMatchObject({
      egressIp: '198.51.100.7',
      egressIpAt: 5,
    });
    expect(r.upsert(draft({ outboundProxyUrl: 'http://other.example:3128' }), 7).egressIp).toBeUndefined();
  });

  it('QDB-10: a request-log row takes its connection egress IP when written', () => {
    const { db, repo: r } = repo();
    const saved = r.upsert(draft({}), 1);
    r.recordEgressIp(saved.id, '203.0.113.4', 2);
    db.prepare(
      "INSERT INTO request_log (id, ts, endpoint, connection, status, stream, latency_ms) VALUES (1, 10, '/v1/x', 'zen', 200, 0, 5)",
    ).run();
    db.prepare(
      "INSERT INTO request_log (id, ts, endpoint, connection, status, stream, latency_ms) VALUES (2, 11, '/v1/x', 'gone', 200, 0, 5)",
    ).run();
    const rows = db.prepare('SELECT id, egress_ip FROM request_log ORDER BY id').all();
    expect(rows).toEqual([
      { id: 1, egress_ip: '203.0.113.4' },
      { id: 2, egress_ip: null },
    ]);
  });
});
