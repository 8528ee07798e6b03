/**
 * Issue 13 §4 in the dashboard: the Overview is the tab a sign-in lands on; traffic through the real
 * proxy (one request failing over from a 429) changes what its charts draw, the stat tiles and the
 * header's "requests today", without a reload. Artifact `overview.png`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../src-main/testing/fake-upstream';
import { launchChromium } from './support/chromium';
import { ARTIFACTS, need, snap } from './support/dashboard';
import { startHeadless, type HeadlessApp } from './support/headless-app';

const nonce = randomBytes(6).toString('hex');
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-overview`;
const PRIMARY_SECRET = `sk-ant-api03-e2e-overview-${nonce}-PRIMARY`;
const BACKUP_SECRET = `sk-ant-api03-e2e-overview-${nonce}-BACKUP`;
const KEY = `lw-e2e-overview-${nonce}-000000000`;
const NEVER_SHOWN = [ADMIN_TOKEN, PRIMARY_SECRET, BACKUP_SECRET, KEY];

let tempDir = '';
let primary: FakeUpstream | null = null;
let backup: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

async function send(): Promise<number> {
  const { proxyUrl } = need(app, 'headless app');
  const res = await fetch(`${proxyUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** What a chart card plots (its data attribute) and what its uPlot canvas was last given. */
async function chartData(p: Page, id: string): Promise<{ total: number; drawn: number | null; legend: string[] }> {
  const figure = p.getByTestId(`chart-${id}`);
  const total = Number(await figure.getAttribute('data-total'));
  const host = figure.locator('.overview-uplot');
  const drawn = (await host.count()) === 0 ? null : Number(await host.getAttribute('data-drawn-total'));
  const legend = (await figure.locator('.overview-legend li').allInnerTexts()).map((t) =>
    t.replace(/\s+/g, ' ').trim(),
  );
  return { total, drawn, legend };
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-overview-'));
  primary = await startFakeUpstream({ format: 'anthropic', name: 'primary', apiKey: PRIMARY_SECRET });
  backup = await startFakeUpstream({ format: 'anthropic', name: 'backup', apiKey: BACKUP_SECRET });
  const configFile = path.join(tempDir, 'leeway.config.json');
  const models = ['claude-opus-4-8'];
  writeFileSync(
    configFile,
    JSON.stringify({
      connections: [
        { name: 'primary', kind: 'anthropic', baseUrl: primary.url, apiKey: PRIMARY_SECRET, models, priority: 1 },
        { name: 'backup', kind: 'anthropic', baseUrl: backup.url, apiKey: BACKUP_SECRET, models, priority: 2 },
      ],
      keys: [{ name: 'laptop', key: KEY }],
      combos: [{ name: 'main', targets: ['primary', 'backup'] }],
      routes: [{ match: '*', to: 'main' }],
    }),
  );
  app = await startHeadless({ dataDir: path.join(tempDir, 'data'), configFile, adminToken: ADMIN_TOKEN });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('the Overview tab in Chromium', () => {
  it('is where the dashboard link lands, with empty charts and no requests today', async () => {
    const p = need(page, 'page');
    const { dashboardUrl } = need(app, 'headless app');
    expect((await p.goto(dashboardUrl))?.status()).toBe(200);
    await p.locator('h2#overview-title').waitFor();
    expect(await p.locator('#tab-overview').getAttribute('aria-selected')).toBe('true');
    await p.getByTestId('requests-today').filter({ hasText: '0 requests today' }).waitFor();
    expect(await chartData(p, 'requests')).toEqual({ total: 0, drawn: null, legend: [] });
    expect(await p.getByTestId('overview-stats').getAttribute('data-requests')).toBe('0');
  });

  it('draws the traffic sent through the proxy, a failover included, live', async () => {
    const p = need(page, 'page');
    need(primary, 'primary fake').enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    need(backup, 'backup fake').enqueue({ kind: 'ok', text: 'Hello from the backup', usage: { input: 12, output: 5 } });
    for (let i = 0; i < 3; i++) expect(await send()).toBe(200);

    await expect.poll(async () => (await chartData(p, 'requests')).drawn, { timeout: 20_000, interval: 250 }).toBe(3);
    const requests = await chartData(p, 'requests');
    expect(requests.total).toBe(3);
    // Which connection served the last two depends on how long the primary cools; the backup served one at least.
    expect(requests.legend.join(', ')).toMatch(/backup [123]/);
    expect(requests.legend.reduce((sum, item) => sum + Number(/ (\d+)$/.exec(item)?.[1] ?? 0), 0)).toBe(3);
    expect((await chartData(p, 'rates')).drawn).toBeGreaterThan(0);
    expect((await chartData(p, 'latency')).drawn).toBeGreaterThan(0);
    expect(await p.getByTestId('overview-stats').getAttribute('data-requests')).toBe('3');
    expect(await p.getByRole('group', { name: 'Failover rate' }).innerText()).toContain('33 %');
    await p.getByTestId('requests-today').filter({ hasText: '3 requests today' }).waitFor();
    // uPlot drew on a real canvas.
    expect(await p.getByTestId('chart-requests').locator('canvas').count()).toBeGreaterThan(0);
    await snap(p, 'overview', NEVER_SHOWN);
  });

  it('splits the same traffic by key, and the week range holds it too', async () => {
    const p = need(page, 'page');
    await p.getByRole('button', { name: 'By key' }).click();
    expect((await chartData(p, 'requests')).legend).toEqual(['laptop 3']);
    await p.getByRole('button', { name: 'Last week' }).click();
    await expect.poll(async () => p.getByTestId('chart-requests').getAttribute('data-buckets')).toBe('168');
    await expect.poll(async () => (await chartData(p, 'requests')).drawn, { timeout: 10_000 }).toBe(3);
    expect(pageErrors).toEqual([]);
  });
});
