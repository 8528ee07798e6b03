import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeRendererFixture,
  rawGet,
  startAdminHarness,
  TEST_TOKEN,
  type AdminHarness,
} from '../testing/admin-harness';

describe('admin HTTP door: dashboard and static files', () => {
  let h: AdminHarness;
  let fixture: Awaited<ReturnType<typeof makeRendererFixture>>;
  beforeAll(async () => {
    fixture = await makeRendererFixture();
    h = await startAdminHarness({ rendererDir: fixture.rendererDir });
  });
  afterAll(async () => {
    await h.close();
    await fixture.cleanup();
  });

  it('PROD-9 trades ?token= for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const res = await fetch(`${h.base}/?token=${TEST_TOKEN}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toBe(`leeway_token=${TEST_TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
  });

  it('PROD-18 sets no cookie for a wrong ?token= and does not echo it', async () => {
    const res = await fetch(`${h.base}/?token=wrong-token-value`, { redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    const body = await res.text();
    expect(body).not.toContain('wrong-token-value');
    expect(body).not.toContain(TEST_TOKEN);
  });

  it('PROD-9 serves index.html at / with the cookie, and a sign-in page without it', async () => {
    const withCookie = await fetch(`${h.base}/`, { headers: { cookie: `leeway_token=${TEST_TOKEN}` } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get('content-type')).toContain('text/html');
    expect(await withCookie.text()).toContain('<div id="root">');

    const without = await fetch(`${h.base}/`);
    expect(without.status).toBe(401);
    const page = await without.text();
    expect(page).toContain('link Leeway printed');
    expect(page).not.toContain(TEST_TOKEN);
  });

  it('PROD-9 serves built assets with their content types and 404s for misses', async () => {
    const js = await fetch(`${h.base}/assets/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const css = await fetch(`${h.base}/assets/app.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${h.base}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${h.base}/assets/`)).status).toBe(404);
  });

  it('PROD-18 refuses path traversal, plain, encoded and through a symlink', async () => {
    for (const path of [
      '/../secret.json',
      '/assets/../../secret.json',
      '/%2e%2e/secret.json',
      '/..%2fsecret.json',
      '/%2E%2E%2Fsecret.json',
      '/..%5csecret.json',
      '/assets/link.json',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const res = await rawGet(h.port, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('outside');
    }
  });
});

describe('admin HTTP door: no dashboard build', () => {
  it('PROD-9 says the dashboard is not built when rendererDir is null', async () => {
    const h = await startAdminHarness({ rendererDir: null });
    try {
      const res = await fetch(`${h.base}/`, { headers: { cookie: `leeway_token=${TEST_TOKEN}` } });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect((await fetch(`${h.base}/assets/app.js`)).status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('PROD-9 says the dashboard is not built when the folder has no index.html', async () => {
    const h = await startAdminHarness({ rendererDir: '/nonexistent/leeway-renderer' });
    try {
      const res = await fetch(`${h.base}/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('not been built');
    } finally {
      await h.close();
    }
  });
});
