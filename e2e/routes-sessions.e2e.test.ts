/**
 * Issue 9 in the dashboard: a route added in the Routes tab is saved and still there after a
 * reload; the Combos tab shows the config file's strategy; the Sessions tab lists pins and leases.
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
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-routes`;
const SECRET = `sk-ant-api03-e2e-routes-${nonce}-SECRET`;
const NEVER_SHOWN = [ADMIN_TOKEN, SECRET];

let tempDir = '';
let upstream: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

async function openTab(p: Page, label: string, id: string): Promise<void> {
  await p.getByRole('tab', { name: label, exact: true }).click();
  await p.waitForURL((url) => url.hash === `#${id}`);
  await p.locator(`h2#${id}-title`).waitFor();
}

/** The stored routes as the admin door answers them, to prove the UI saved rather than only showed. */
async function storedRoutes(): Promise<unknown> {
  const { dashboardUrl } = need(app, 'headless app');
  const res = await fetch(`${new URL(dashboardUrl).origin}/api/rpc/routes.list`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
  });
  return ((await res.json()) as { value: unknown }).value;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-routes-'));
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'max', apiKey: SECRET });
  const configFile = path.join(tempDir, 'leeway.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      connections: [
        { name: 'max-1', kind: 'anthropic', baseUrl: upstream.url, apiKey: SECRET, models: ['claude-opus-4-8'] },
      ],
      keys: [
        { name: 'agent', key: `lw-e2e-agent-${nonce}`, scopes: ['lease:exclusive'], allowedConnections: ['max-1'] },
      ],
      combos: [
        { name: 'main', targets: ['max-1'], strategy: 'round-robin' },
        { name: 'cheap', targets: [{ connection: 'max-1', model: 'claude-haiku-4-5' }] },
      ],
    }),
  );
  app = await startHeadless({ dataDir: path.join(tempDir, 'data'), configFile, adminToken: ADMIN_TOKEN });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
  await page.goto(app.dashboardUrl);
  await openTab(page, 'Connections', 'connections'); // Overview is the first tab (issue 13 §4)
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await upstream?.close();
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('routes, strategy and sessions in Chromium', () => {
  it("ISSUE9-STRATEGY LEASE-3: the config file's strategy and key access show in Combos and Keys", async () => {
    const p = need(page, 'page');
    await openTab(p, 'Combos', 'combos');
    const mainRow = p.locator('tr', { has: p.locator('code', { hasText: /^main$/ }) });
    await expect.poll(async () => (await mainRow.locator('td').allInnerTexts())[1]?.trim()).toBe('Round-robin');
    await openTab(p, 'Keys', 'keys');
    const agentRow = p.locator('tr', { hasText: 'agent' });
    await agentRow.getByText('lease:exclusive').waitFor();
    expect(await agentRow.innerText()).toContain('max-1');
  });

  it('ISSUE9-ROUTES: a route added in the Routes tab is saved, stored in order, and still there after a reload', async () => {
    const p = need(page, 'page');
    await openTab(p, 'Routes', 'routes');
    await p.getByText('The first matching route wins').waitFor();
    await p.getByRole('button', { name: 'Start from the Claude Code recipe' }).click();
    await p.getByRole('button', { name: 'Add route' }).click();
    // A route after the catch-all is refused inline, before anything is sent.
    await p.getByLabel('Route 3 match').fill('claude-opus-*');
    await p.getByLabel('Route 3 to').fill('max-1/claude-opus-4-8');
    await p.getByRole('button', { name: 'Save routes' }).click();
    await p.getByText(/is unreachable: route 2/).waitFor();
    expect(await storedRoutes()).toEqual([]);
    await p.getByRole('button', { name: 'Move route 3 up' }).click();
    await p.getByRole('button', { name: 'Save routes' }).click();
    await p.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const expected = [
      { match: '*haiku*', to: 'cheap' },
      { match: 'claude-opus-*', to: 'max-1/claude-opus-4-8' },
      { match: '*', to: 'main' },
    ];
    expect(await storedRoutes()).toEqual(expected);
    await snap(p, 'routes', NEVER_SHOWN);

    await p.reload();
    await p.locator('h2#routes-title').waitFor();
    await expect.poll(() => p.getByLabel('Route 2 match').inputValue()).toBe('claude-opus-*');
    expect(await p.getByLabel('Route 3 to').inputValue()).toBe('main');
  });

  it('AFF-4 LEASE-7: the Sessions tab explains pins and leases when there are none', async () => {
    const p = need(page, 'page');
    await openTab(p, 'Sessions', 'sessions');
    await p.getByText('No active session pins').waitFor();
    await p.getByText(/No active leases/).waitFor();
    await snap(p, 'sessions', NEVER_SHOWN);
    expect(pageErrors).toEqual([]);
  });
});
