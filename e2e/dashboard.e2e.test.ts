/**
 * The headless app end to end: the built `out/main/headless.js` as a child process, two fake
 * Anthropic upstreams in this process, and the dashboard driven in Debian Chromium.
 * The tests run in order and share one signed-in page, like a person clicking through the tabs.
 */
import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../src-main/testing/fake-upstream';
import { launchChromium } from './support/chromium';
import { assertBuilt, ROOT, startHeadless, type HeadlessApp } from './support/headless-app';
import { leakedSecrets, pageTextAndHtml } from './support/page-text';

const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
const MODEL = 'claude-sonnet-4-6';

const nonce = randomBytes(6).toString('hex');
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-abcdef`;
const PRIMARY_SECRET = `sk-ant-api03-e2e-primary-${nonce}-SECRET`;
const BACKUP_SECRET = `sk-ant-api03-e2e-backup-${nonce}-SECRET`;
const CONFIG_KEY = `lw-e2e-config-key-${nonce}`;
/** Never to be shown by the dashboard, on any tab. */
const NEVER_SHOWN = [ADMIN_TOKEN, PRIMARY_SECRET, BACKUP_SECRET, CONFIG_KEY];

let tempDir = '';
let primary: FakeUpstream | null = null;
let backup: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let context: BrowserContext | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

/** Set by the Keys test, used by the request and Setup tests. */
let createdKey: { name: string; plain: string; prefix: string } | null = null;

function need<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} is not ready (an earlier step failed)`);
  return value;
}

/** Full-page screenshot into e2e/artifacts/dashboard-<name>.png, after checking that no secret is on the page. */
async function snap(p: Page, name: string): Promise<string> {
  expect(await leakedSecrets(p, NEVER_SHOWN), `secrets visible on ${name}`).toEqual([]);
  const file = path.join(ARTIFACTS, `dashboard-${name}.png`);
  await p.screenshot({ path: file, fullPage: true });
  return file;
}

async function openTab(p: Page, label: string, id: string): Promise<void> {
  await p.getByRole('tab', { name: label, exact: true }).click();
  await p.waitForURL((url) => url.hash === `#${id}`);
  await p.locator(`h2#${id}-title`).waitFor();
}

beforeAll(async () => {
  assertBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-'));

  // Each fake accepts only its own connection's secret, so a 200 proves the proxy sent the right one.
  primary = await startFakeUpstream({ format: 'anthropic', name: 'primary', apiKey: PRIMARY_SECRET });
  backup = await startFakeUpstream({ format: 'anthropic', name: 'backup', apiKey: BACKUP_SECRET });

  const configFile = path.join(tempDir, 'leeway.config.json');
  writeFileSync(
    configFile,
    JSON.stringify(
      {
        connections: [
          { name: 'primary', kind: 'anthropic', baseUrl: primary.url, apiKey: PRIMARY_SECRET, priority: 1 },
          { name: 'backup', kind: 'anthropic', baseUrl: backup.url, apiKey: BACKUP_SECRET, priority: 2 },
        ],
        keys: [{ name: 'config-key', key: CONFIG_KEY }],
        combos: [
          {
            name: 'main',
            targets: [
              { connection: 'primary', model: MODEL },
              { connection: 'backup', model: MODEL },
            ],
          },
        ],
      },
      null,
      2,
    ),
  );
  app = await startHeadless({ dataDir: path.join(tempDir, 'data'), configFile, adminToken: ADMIN_TOKEN });

  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
});

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('headless dashboard in Chromium', () => {
  it('PROD-1 the dashboard link signs in and the Connections tab lists both connections without their secrets', async () => {
    const p = need(page, 'page');
    const { dashboardUrl, proxyUrl } = need(app, 'headless app');
    expect(dashboardUrl).toContain('?token=');
    const response = await p.goto(dashboardUrl);
    expect(response?.status()).toBe(200);
    // The token is traded for a cookie and dropped from the address bar.
    expect(p.url()).toBe(`${new URL(dashboardUrl).origin}/`);
    expect(await p.evaluate<string>('document.cookie')).toBe('');

    await openTab(p, 'Connections', 'connections'); // Overview is the first tab (issue 13 §4)
    await p.locator('.proxy-url', { hasText: proxyUrl }).waitFor();
    const rows = p.locator('table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    // Sorted by priority: primary (1) first, then backup (2).
    const cells = async (index: number): Promise<string[]> =>
      (await rows.nth(index).locator('td').allInnerTexts()).map((t) => t.trim());
    const [first, second] = [await cells(0), await cells(1)];
    expect(first[0]).toContain('primary');
    expect(first[0]).toContain(need(primary, 'primary fake').url);
    expect(first[1]).toBe('anthropic');
    expect(first[3]).toBe('1');
    expect(second[0]).toContain('backup');
    expect(second[1]).toBe('anthropic');
    expect(second[3]).toBe('2');
    // A hint, not the secret: enough to tell two keys apart.
    expect(first[5]).toMatch(/^sk-ant…/);

    expect(await leakedSecrets(p, NEVER_SHOWN)).toEqual([]);
    await snap(p, 'connections');

    await openTab(p, 'Combos', 'combos');
    await p.getByText('main', { exact: true }).first().waitFor();
    await snap(p, 'combos');
  });

  it('PROD-12 a key created in the Keys tab is shown once; after a reload only its prefix remains', async () => {
    const p = need(page, 'page');
    await openTab(p, 'Keys', 'keys');
    await p.locator('table tbody tr', { hasText: 'config-key' }).waitFor();

    const name = 'laptop-claude-code';
    await p.locator('#key-name').fill(name);
    await p.getByRole('button', { name: 'Create key' }).click();
    const plain = (await p.locator('.plain-key').innerText()).trim();
    expect(plain).toMatch(/^lw-\S{20,}$/);
    const row = p.locator('table tbody tr', { hasText: name });
    await row.waitFor();
    const prefix = (await row.locator('td').nth(1).innerText()).trim().replace(/…$/, '');
    expect(prefix.length).toBeGreaterThan(2);
    expect(plain.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(plain.length);
    createdKey = { name, plain, prefix };
    await snap(p, 'keys-created');

    // A reload forgets the plain key: the core keeps only its hash.
    await p.reload();
    await p.locator('table tbody tr', { hasText: name }).waitFor();
    expect(await p.locator('.plain-key').count()).toBe(0);
    const everything = await pageTextAndHtml(p);
    expect(everything).not.toContain(plain);
    expect(await p.locator('table tbody tr', { hasText: name }).locator('code').innerText()).toBe(`${prefix}…`);

    // And so does leaving and coming back after the reload.
    await openTab(p, 'Connections', 'connections');
    await openTab(p, 'Keys', 'keys');
    await p.locator('table tbody tr', { hasText: name }).waitFor();
    expect(await pageTextAndHtml(p)).not.toContain(plain);
    await snap(p, 'keys');
  });

  it('PROD-16 a request with the new key fails over from a 429 and shows up live in the Activity tab', async () => {
    const p = need(page, 'page');
    const key = need(createdKey, 'created key');
    const { proxyUrl } = need(app, 'headless app');
    const first = need(primary, 'primary fake');
    const second = need(backup, 'backup fake');

    await openTab(p, 'Activity', 'activity');
    await p.getByText('No requests yet').waitFor();
    // A marker a reload would wipe: the row must arrive over the event stream, not a page load.
    await p.evaluate<string>("document.body.dataset.e2eMarker = 'same-page'");

    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    second.enqueue({ kind: 'ok', text: 'Hello from the backup', usage: { input: 12, output: 5 } });
    const client = new Anthropic({ apiKey: key.plain, baseURL: proxyUrl, maxRetries: 0 });
    const { data: message, response } = await client.messages
      .create({ model: 'main', max_tokens: 32, messages: [{ role: 'user', content: 'Say hello' }] })
      .withResponse();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the backup' }]);
    expect(response.headers.get('x-leeway-connection')).toBe('backup');
    expect(response.headers.get('x-leeway-failover')).toBe('primary=429');
    expect(first.requests.map((r) => r.response?.status)).toEqual([429]);
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0]?.headers['x-api-key']).toBe(BACKUP_SECRET);

    const row = p.locator('table tbody tr').first();
    await row.waitFor({ timeout: 10_000 });
    expect(await p.evaluate<string>('document.body.dataset.e2eMarker')).toBe('same-page');
    expect(await p.locator('table tbody tr').count()).toBe(1);
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    // Time, Key, Model, Connection, Status, Latency, TTFB, Tokens, Failover path
    expect(cells[1]).toBe(key.name);
    expect(cells[2]).toBe('main');
    expect(cells[3]).toBe('backup');
    expect(cells[4]).toBe('200 OK');
    expect(cells[7]).toBe('12 → 5');
    expect(cells[8]).toBe('primary (429) → backup');

    await snap(p, 'activity');

    // For a person reading the artifacts: how the other tabs look once traffic has flowed.
    await openTab(p, 'Connections', 'connections');
    await snap(p, 'connections-after-request');
    await openTab(p, 'Keys', 'keys');
    await snap(p, 'keys-after-request');
  });

  it('PROD-13 ISSUE-23 the Setup tab shows the real proxy URL in the snippets and lists every other coding agent', async () => {
    const p = need(page, 'page');
    const { proxyUrl } = need(app, 'headless app');
    await openTab(p, 'Setup', 'setup');
    const snippet = async (title: string): Promise<string> =>
      (
        await p
          .locator('article.snippet', { has: p.getByRole('heading', { name: title, exact: true }) })
          .locator('pre')
          .innerText()
      ).trim();

    const claude = await snippet('Claude Code');
    expect(claude).toContain(`export ANTHROPIC_BASE_URL=${proxyUrl}\n`);
    const aiderOpenai = await snippet('aider (OpenAI-compatible API)');
    expect(aiderOpenai).toContain(`--openai-api-base ${proxyUrl}/v1 `);
    const aiderAnthropic = await snippet('aider (Anthropic API)');
    expect(aiderAnthropic).toContain(`--set-env ANTHROPIC_API_BASE=${proxyUrl}`);
    // The page was reloaded since the key was created, so the snippets hold a placeholder, not the key.
    for (const code of [claude, aiderOpenai, aiderAnthropic]) expect(code).toContain('<your-leeway-key>');
    expect(await pageTextAndHtml(p)).not.toContain(need(createdKey, 'created key').plain);
    // ISSUE-23 §2: every other coding agent is listed with its status and its one-click actions.
    const agents = p.getByRole('region', { name: 'Other coding agents' }).getByRole('article');
    await agents.first().waitFor();
    expect(await agents.locator('h3').allInnerTexts()).toEqual([
      'codex',
      'opencode',
      'Qwen Code',
      'Gemini CLI',
      'aider',
    ]);
    for (const agent of await agents.all()) {
      expect(await agent.locator('.badge').innerText()).toMatch(/Configured|Not configured|Cannot read/);
      expect(await agent.getByRole('button', { name: 'Preview change' }).count()).toBe(1);
    }
    await snap(p, 'setup');
  });

  it('PROD-8 PROD-9 without the token a fresh browser gets the sign-in page, not the dashboard', async () => {
    const b = need(browser, 'browser');
    const origin = new URL(need(app, 'headless app').dashboardUrl).origin;
    const stranger = await b.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    try {
      // A page per URL: a hash-only change on the same page would not load anything.
      for (const url of [`${origin}/`, `${origin}/#activity`, `${origin}/?token=not-the-admin-token-at-all`]) {
        const p = await stranger.newPage();
        const response = await p.goto(url);
        expect(response?.status(), url).toBe(401);
        expect(await p.locator('h1').innerText()).toBe('Open the dashboard link');
        expect(await p.locator('#root').count()).toBe(0);
        expect(await leakedSecrets(p, NEVER_SHOWN)).toEqual([]);
        if (url === `${origin}/`) await snap(p, 'sign-in');
        await p.close();
      }

      const api = await stranger.request.post(`${origin}/api/rpc/connections.list`, { data: null });
      expect(api.status()).toBe(401);
      expect(await api.text()).not.toContain('primary');
    } finally {
      await stranger.close();
    }
  });

  it('PROD-1 the dashboard raised no script or console errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
