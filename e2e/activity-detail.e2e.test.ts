/**
 * Issue 13 §3 end to end: a failover and a wrong-key request through the built headless app, the
 * Activity tab in Debian Chromium listing both (the refused one without its key), the detail view
 * showing every attempt with its status and headers, the search, and the CSV download.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../src-main/testing/fake-upstream';
import { launchChromium } from './support/chromium';
import { ARTIFACTS, need, openTab, snap, waitUntil } from './support/dashboard';
import { startHeadless, type HeadlessApp } from './support/headless-app';

const MODEL = 'claude-sonnet-4-6';
const nonce = randomBytes(6).toString('hex');
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-activity`;
const PRIMARY_SECRET = `sk-ant-api03-e2e-primary-${nonce}-SECRET`;
const BACKUP_SECRET = `sk-ant-api03-e2e-backup-${nonce}-SECRET`;
const KEY = `lw-e2e-activity-key-${nonce}`;
const WRONG_KEY = `lw-e2e-wrong-key-${nonce}`;
/** Never on the page, never in the export. */
const NEVER_SHOWN = [ADMIN_TOKEN, PRIMARY_SECRET, BACKUP_SECRET, KEY, WRONG_KEY];

let tempDir = '';
let primary: FakeUpstream | null = null;
let backup: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

function ask(key: string): Promise<Response> {
  const { proxyUrl } = need(app, 'headless app');
  return fetch(`${proxyUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'main', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }),
  });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-activity-'));
  primary = await startFakeUpstream({ format: 'anthropic', name: 'primary', apiKey: PRIMARY_SECRET });
  backup = await startFakeUpstream({ format: 'anthropic', name: 'backup', apiKey: BACKUP_SECRET });
  const configFile = path.join(tempDir, 'leeway.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      connections: [
        { name: 'primary', kind: 'anthropic', baseUrl: primary.url, apiKey: PRIMARY_SECRET, priority: 1 },
        { name: 'backup', kind: 'anthropic', baseUrl: backup.url, apiKey: BACKUP_SECRET, priority: 2 },
      ],
      keys: [{ name: 'laptop', key: KEY }],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'primary', model: MODEL },
            { connection: 'backup', model: MODEL },
          ],
        },
      ],
    }),
  );
  app = await startHeadless({ dataDir: path.join(tempDir, 'data'), configFile, adminToken: ADMIN_TOKEN });
  browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    acceptDownloads: true,
  });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
  await page.goto(app.dashboardUrl);
  await openTab(page, 'activity');
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('Activity that explains, in Chromium (issue 13 §3)', () => {
  it('ISSUE-13 PROD-16: a failover and a refused request appear live; the detail view shows both attempts', async () => {
    const p = need(page, 'page');
    const first = need(primary, 'primary fake');
    first.enqueue({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '30', 'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z' },
    });
    need(backup, 'backup fake').enqueue({ kind: 'ok', text: 'Hello from the backup' });
    const served = await ask(KEY);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-leeway-failover')).toBe('primary=429');
    expect((await ask(WRONG_KEY)).status).toBe(401);

    const rows = p.locator('table tbody tr');
    await waitUntil(
      () => rows.count(),
      (n) => n === 2,
      'two activity rows',
      10_000,
    );
    const cells = async (index: number): Promise<string[]> =>
      (await rows.nth(index).locator('td').allInnerTexts()).map((t) => t.trim());
    // Newest first: the refusal (no key, no connection), then the failover.
    const [refused, failover] = [await cells(0), await cells(1)];
    expect(refused[1]).toBe('—');
    expect(refused[3]).toBe('none');
    expect(refused[4]).toContain('401 failed');
    expect(refused[4]).toContain('unauthorized');
    expect(failover[1]).toBe('laptop');
    expect(failover[3]).toContain('backup');
    expect(failover[8]).toBe('primary (429) → backup');

    await rows.nth(1).click();
    const dialog = p.getByRole('dialog');
    await dialog.waitFor();
    const attempts = dialog.locator('ol[aria-label="Attempts"] > li');
    expect(await attempts.count()).toBe(2);
    const firstAttempt = (await attempts.nth(0).innerText()).replace(/\s+/g, ' ');
    const secondAttempt = (await attempts.nth(1).innerText()).replace(/\s+/g, ' ');
    expect(firstAttempt).toMatch(/^primary 429 \S+/);
    expect(firstAttempt).toContain(`model ${MODEL}`);
    expect(firstAttempt).toContain('retry-after 30');
    expect(firstAttempt).toContain('anthropic-ratelimit-requests-reset 2030-01-01T00:00:30Z');
    expect(firstAttempt).toMatch(/\d+ ms/);
    expect(secondAttempt).toMatch(/^backup 200 served \d+ ms/);
    expect(await dialog.innerText()).toContain('Model sent upstream');
    await snap(p, 'activity-detail', NEVER_SHOWN);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await rows.nth(0).click();
    const refusal = await p.getByRole('dialog').innerText();
    expect(refusal).toContain('none (refused before a key was verified)');
    expect(refusal).toContain('Invalid local API key');
    expect(refusal).toContain('No upstream was tried');
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('ISSUE-13 PROD-8: the search narrows the list to the request with a 429 attempt', async () => {
    const p = need(page, 'page');
    await p.getByLabel('Search').fill('429');
    await p.getByLabel('Search').press('Enter');
    const rows = p.locator('table tbody tr');
    await waitUntil(
      () => rows.count(),
      (n) => n === 1,
      'one matching row',
    );
    expect(await rows.first().locator('td').nth(8).innerText()).toBe('primary (429) → backup');
    await snap(p, 'activity-search', NEVER_SHOWN);
    await p.getByRole('button', { name: 'Clear filters' }).click();
    await waitUntil(
      () => rows.count(),
      (n) => n === 2,
      'both rows again',
    );
  });

  it('ISSUE-13: "Export CSV" downloads both requests with every attempt and no key or secret', async () => {
    const p = need(page, 'page');
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^leeway-activity-\d{8}-\d{6}\.csv$/);
    const file = path.join(tempDir, 'export.csv');
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('unauthorized');
    expect(lines[2]).toMatch(/primary 429 \S+ \d+ms .*retry-after=30/);
    expect(lines[2]).toMatch(/backup 200 served \d+ms/);
    for (const secret of NEVER_SHOWN) expect(csv).not.toContain(secret);
    expect(await p.getByRole('status').innerText()).toMatch(/^Exported 2 requests to leeway-activity-/);
  });

  it('PROD-1 the Activity tab raised no script or console errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
