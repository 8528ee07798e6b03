/**
 * Issue 10 in the dashboard: a quota pool made in the Quota tab (two keys, a requests/hourly
 * dimension) and traffic from one key through the real proxy; the bars and the allocation table
 * move, and once the pool is strict the bursting key's next request is shown as blocked.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../src-main/testing/fake-upstream';
import { launchChromium } from './support/chromium';
import { ARTIFACTS, need, openTab, snap, snapWhole } from './support/dashboard';
import { startHeadless, type HeadlessApp } from './support/headless-app';

const nonce = randomBytes(6).toString('hex');
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-quota`;
const SECRET = `sk-ant-api03-e2e-quota-${nonce}-SECRET`;
const ALICE_KEY = `lw-e2e-alice-${nonce}-0000000000`;
const BOB_KEY = `lw-e2e-bob-${nonce}-00000000000`;
const NEVER_SHOWN = [ADMIN_TOKEN, SECRET, ALICE_KEY, BOB_KEY];

let tempDir = '';
let upstream: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

/** One Messages request through the proxy with a local key; answers the status and the error code, if any. */
async function send(key: string): Promise<{ status: number; code: string | null; body: string }> {
  const { proxyUrl } = need(app, 'headless app');
  const res = await fetch(`${proxyUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const body = await res.text();
  const code = /"code"\s*:\s*"([a-z_]+)"/.exec(body)?.[1] ?? null;
  return { status: res.status, code, body };
}

/** The allocation row of `key` in the open pool card, as cell texts. */
async function allocationRow(p: Page, key: string): Promise<string[]> {
  const row = p.locator('table.quota-allocations tr', { has: p.locator('th', { hasText: new RegExp(`^${key}$`) }) });
  return (await row.locator('th, td').allInnerTexts()).map((t) => t.trim());
}

/** The width of `key`'s segment in the stacked bar, in percent of the bar. */
async function segmentPercent(p: Page, key: string): Promise<number> {
  const style = (await p.locator(`.quota-bar-segment[data-key="${key}"]`).getAttribute('style')) ?? '';
  return Number.parseFloat(/width:\s*([\d.]+)%/.exec(style)?.[1] ?? 'NaN');
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-quota-'));
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'max', apiKey: SECRET });
  const configFile = path.join(tempDir, 'leeway.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      connections: [
        { name: 'max-1', kind: 'anthropic', baseUrl: upstream.url, apiKey: SECRET, models: ['claude-opus-4-8'] },
      ],
      keys: [
        { name: 'alice', key: ALICE_KEY },
        { name: 'bob', key: BOB_KEY },
      ],
    }),
  );
  app = await startHeadless({ dataDir: path.join(tempDir, 'data'), configFile, adminToken: ADMIN_TOKEN });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
  await page.goto(app.dashboardUrl);
  await openTab(page, 'connections'); // Overview is the first tab (issue 13 §4)
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await upstream?.close();
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('quota pools in Chromium', () => {
  it('PROD-7 QUI-1 QUI-3: a pool of two keys on 20 requests/hour is created in the Quota tab', async () => {
    const p = need(page, 'page');
    await p.getByRole('tab', { name: 'Quota', exact: true }).click();
    await p.waitForURL((url) => url.hash === '#quota');
    await p.locator('h2#quota-title').waitFor();
    await p.getByText('No pools yet').waitFor();
    await p.getByRole('button', { name: 'Create the first pool' }).click();
    const dialog = p.getByRole('dialog', { name: 'Create pool' });
    await dialog.getByLabel('Name').fill('team');
    await dialog.getByLabel('max-1').check();
    const dim = dialog.getByRole('group', { name: 'Dimension 1' });
    await dim.getByLabel('Unit').selectOption('requests');
    await dim.getByLabel('Window').selectOption('hourly');
    await dim.getByLabel('Limit').fill('20');
    const first = dialog.getByRole('group', { name: 'Allocation 1' });
    await first.getByLabel('Key').selectOption('alice');
    await first.getByLabel('Weight %').fill('50');
    await dialog.getByRole('button', { name: 'Add key' }).click();
    const second = dialog.getByRole('group', { name: 'Allocation 2' });
    await second.getByLabel('Key').selectOption('bob');
    await second.getByLabel('Weight %').fill('50');
    await snapWhole(p, dialog, 'quota-create', NEVER_SHOWN);
    await dialog.getByRole('button', { name: 'Create pool' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = p.getByRole('article', { name: 'team' });
    await card.getByText('2 allocations').waitFor();
    await card.getByRole('table', { name: /Allocations — 20 requests \/ hour/ }).waitFor();
    expect(await allocationRow(p, 'alice')).toEqual(['alice', 'hard', '50 %', '0', '10', '10 left', 'no', 'allowed']);
  });

  it('QUI-5 QUI-6 QUI-10: traffic from one key moves its bar and its row; the other key stays untouched', async () => {
    const p = need(page, 'page');
    for (let i = 0; i < 4; i++) expect((await send(ALICE_KEY)).status).toBe(200);
    // The open card re-reads its usage every few seconds.
    await expect.poll(async () => (await allocationRow(p, 'alice'))[3], { timeout: 15_000 }).toBe('4');
    expect(await segmentPercent(p, 'alice')).toBeCloseTo(20, 0);
    expect(await segmentPercent(p, 'bob')).toBe(0);
    expect((await allocationRow(p, 'alice'))[5]).toBe('6 left');
    expect((await allocationRow(p, 'bob'))[3]).toBe('0');
    await p.getByRole('img', { name: /4 of 20 used \(20 %\), generous/ }).waitFor();
    await snap(p, 'quota', NEVER_SHOWN);
  });

  it('QFAIR QUI-6: past the threshold the bursting key is held at its share with quota_exceeded, and the table says so', async () => {
    const p = need(page, 'page');
    let refused: { status: number; code: string | null; body: string } | null = null;
    for (let i = 0; i < 16 && refused === null; i++) {
      const answer = await send(ALICE_KEY);
      if (answer.status !== 200) refused = answer;
    }
    const held = need(refused, 'a refused request');
    expect(held.status).toBe(429);
    expect(held.code).toBe('quota_exceeded');
    expect((await send(BOB_KEY)).status).toBe(200);
    await expect.poll(async () => (await allocationRow(p, 'alice'))[7], { timeout: 15_000 }).toMatch(/^blocked/);
    expect((await allocationRow(p, 'bob'))[7]).toBe('allowed');
    await p.getByRole('img', { name: /strict$/ }).waitFor();
    await snap(p, 'quota-strict', NEVER_SHOWN);
  });

  it('QUI-13 QUI-14 QUI-15: a manual plan is saved for a connection, then removed so it falls back to none', async () => {
    const p = need(page, 'page');
    const plan = p.getByRole('form', { name: 'Plan of max-1' });
    await plan.getByText('no plan — set one by hand').waitFor();
    const dim = plan.getByRole('group', { name: 'Dimension 1' });
    await dim.getByLabel('Unit').selectOption('requests');
    await dim.getByLabel('Window').selectOption('daily');
    await dim.getByLabel('Limit').fill('500');
    await plan.getByRole('button', { name: 'Save plan' }).click();
    await p.getByRole('form', { name: 'Plan of max-1' }).getByText('manual override', { exact: true }).waitFor();
    await p.getByRole('status').filter({ hasText: 'Saved as a manual override.' }).waitFor();
    await p.getByRole('form', { name: 'Plan of max-1' }).getByRole('button', { name: 'Remove override' }).click();
    await p.getByRole('form', { name: 'Plan of max-1' }).getByText('no plan — set one by hand').waitFor();
  });

  it('QDRV-3: Settings › Quota store shows the store in force', async () => {
    const p = need(page, 'page');
    await p.getByRole('tab', { name: 'Settings', exact: true }).click();
    await p.locator('h2#settings-title').waitFor();
    const card = p.getByRole('form', { name: 'Quota store' });
    await card
      .getByRole('status', { name: 'Quota store in force' })
      .getByText(/In use: SQLite/)
      .waitFor();
    expect(await card.getByLabel('Driver').inputValue()).toBe('');
    await card.scrollIntoViewIfNeeded();
    await snap(p, 'quota-settings', NEVER_SHOWN);
    expect(pageErrors).toEqual([]);
  });
});
