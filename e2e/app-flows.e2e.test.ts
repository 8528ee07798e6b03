/**
 * The flows a person goes through in the dashboard, end to end: the built `out/main/headless.js` as
 * a child process, two fake Anthropic upstreams in this process, and Debian Chromium.
 *   - a Claude subscription connection added in the editor, its Claude options kept across a reopen;
 *   - a local key created in the UI and used by @anthropic-ai/sdk, the request arriving live in Activity;
 *   - a 429 with retry-after benching an API-key connection, counted down and cleared in Cooldowns;
 *   - a screenshot of every tab (light and dark for Connections and Cooldowns);
 *   - the editor dialog driven from the keyboard.
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
import {
  ARTIFACTS,
  focusInfo,
  keepForReadme,
  need,
  openTab,
  SCREENSHOTS,
  snap as snapWith,
  snapLightAndDark,
  snapWhole,
  waitUntil,
  type FocusInfo,
} from './support/dashboard';
import { assertBuilt, startHeadless, type HeadlessApp } from './support/headless-app';
import { pageTextAndHtml } from './support/page-text';

const MODEL = 'claude-sonnet-4-6';
/** Made in the editor by the first test. */
const CLAUDE = 'claude-sub';
/** From the config file: a plain Anthropic API-key connection, the one the 429 benches. */
const API = 'anthropic-api';

const nonce = randomBytes(6).toString('hex');
const ADMIN_TOKEN = `e2e-admin-token-${nonce}-abcdef`;
const OAUTH_TOKEN = `sk-ant-oat01-e2e-${nonce}-SECRET`;
const API_SECRET = `sk-ant-api03-e2e-${nonce}-SECRET`;
/** Never to be shown by the dashboard, on any tab, once saved. */
const NEVER_SHOWN = [ADMIN_TOKEN, OAUTH_TOKEN, API_SECRET];

let tempDir = '';
let claudeFake: FakeUpstream | null = null;
let apiFake: FakeUpstream | null = null;
let app: HeadlessApp | null = null;
let browser: Browser | null = null;
let context: BrowserContext | null = null;
let page: Page | null = null;
const pageErrors: string[] = [];

/** Set by the key test, used by every request after it. */
let plainKey: string | null = null;
const KEY_NAME = 'sdk-e2e';

const snap = (p: Page, name: string): Promise<string> => snapWith(p, name, NEVER_SHOWN);

function client(): Anthropic {
  return new Anthropic({
    apiKey: need(plainKey, 'local key'),
    baseURL: need(app, 'headless app').proxyUrl,
    maxRetries: 0,
  });
}

/** mm:ss (or h:mm:ss) → seconds. */
function seconds(countdown: string): number {
  const parts = countdown.trim().split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

beforeAll(async () => {
  assertBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'leeway-e2e-flows-'));

  // Each fake accepts only its own connection's credential, so a 200 proves the proxy sent the right one.
  claudeFake = await startFakeUpstream({ format: 'anthropic', name: 'claude-fake', apiKey: OAUTH_TOKEN });
  apiFake = await startFakeUpstream({ format: 'anthropic', name: 'api-fake', apiKey: API_SECRET });

  const configFile = path.join(tempDir, 'leeway.config.json');
  writeFileSync(
    configFile,
    JSON.stringify(
      {
        connections: [{ name: API, kind: 'anthropic', baseUrl: apiFake.url, apiKey: API_SECRET, priority: 1 }],
        combos: [{ name: 'everyday', targets: [{ connection: API, model: MODEL }] }],
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
  await Promise.all([claudeFake?.close(), apiFake?.close()]);
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('dashboard flows in Chromium', () => {
  it('PROD-5 LOWP-1 RESET-1 a Claude subscription connection made in the editor keeps Low priority and Auto limit reset; its token is never shown back', async () => {
    const p = need(page, 'page');
    const { dashboardUrl } = need(app, 'headless app');
    const fake = need(claudeFake, 'Claude fake');
    expect((await p.goto(dashboardUrl))?.status()).toBe(200);
    await openTab(p, 'connections'); // Overview is the first tab (issue 13 §4)
    await p.getByTestId(`connection-row-${API}`).waitFor();

    await p.getByRole('button', { name: 'Add connection', exact: true }).click();
    const dialog = p.getByRole('dialog', { name: 'Add connection' });
    await dialog.waitFor();
    // The Claude section belongs to subscription connections only.
    expect(await dialog.locator('#conn-low-priority').count()).toBe(0);
    await dialog.locator('#conn-name').fill(CLAUDE);
    await dialog.locator('#conn-kind').selectOption('claude-oauth');
    await dialog.locator('#conn-base-url').fill(fake.url);
    await dialog.locator('#conn-access-token').fill(OAUTH_TOKEN);
    await dialog.locator('#conn-priority').fill('2');
    const low = dialog.getByRole('checkbox', { name: 'Low priority' });
    const reset = dialog.getByRole('checkbox', { name: 'Auto limit reset' });
    // Both opt-ins start off (LOWP-1, RESET-1).
    expect(await low.isChecked()).toBe(false);
    expect(await reset.isChecked()).toBe(false);
    await low.check();
    await reset.check();
    await dialog.getByRole('button', { name: 'Add connection', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = p.getByTestId(`connection-row-${CLAUDE}`);
    await row.waitFor();
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    expect(cells[0]).toContain(CLAUDE);
    expect(cells[0]).toContain(fake.url);
    expect(cells[1]).toContain('claude-oauth');
    expect(cells[1]).toContain('Low priority on');
    expect(cells[1]).toContain('Auto limit reset on');
    expect(cells[3]).toBe('2');
    expect(cells[5]).toMatch(/^sk-ant…/);

    // Round trip through the core: after a reload the editor is filled from what was stored.
    await p.reload();
    await row.waitFor();
    await p.getByRole('button', { name: `Edit ${CLAUDE}` }).click();
    const editor = p.getByRole('dialog', { name: `Edit ${CLAUDE}` });
    await editor.waitFor();
    expect(await editor.locator('#conn-kind').inputValue()).toBe('claude-oauth');
    expect(await editor.locator('#conn-base-url').inputValue()).toBe(fake.url);
    expect(await editor.getByRole('checkbox', { name: 'Low priority' }).isChecked()).toBe(true);
    expect(await editor.getByRole('checkbox', { name: 'Auto limit reset' }).isChecked()).toBe(true);
    // Write-only: the token field is empty, the hint names the stored token without showing it.
    for (const id of ['#conn-access-token', '#conn-refresh-token', '#conn-expires-at']) {
      expect(await editor.locator(id).inputValue(), id).toBe('');
    }
    expect(await editor.locator('#conn-access-token').getAttribute('placeholder')).toBe('unchanged');
    expect(await editor.innerText()).toMatch(/Stored: sk-ant…\S+\. Leave empty to keep it\./);
    expect(await pageTextAndHtml(p)).not.toContain(OAUTH_TOKEN);
    await snapWhole(p, editor, 'connection-editor-claude', NEVER_SHOWN);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'detached' });
  });

  it('PROD-12 PROD-16 a key made in the Keys tab is shown once, and an @anthropic-ai/sdk request with it appears live in Activity', async () => {
    const p = need(page, 'page');
    const fake = need(claudeFake, 'Claude fake');

    await openTab(p, 'keys');
    await p.locator('#key-name').fill(KEY_NAME);
    await p.getByRole('button', { name: 'Create key' }).click();
    const plain = (await p.locator('.plain-key').innerText()).trim();
    expect(plain).toMatch(/^lw-\S{20,}$/);
    const keyRow = p.locator('table tbody tr', { hasText: KEY_NAME });
    await keyRow.waitFor();
    const prefix = (await keyRow.locator('code').innerText()).trim().replace(/…$/, '');
    expect(plain.startsWith(prefix) && prefix.length < plain.length).toBe(true);
    plainKey = plain;
    await snap(p, 'keys-created');

    await openTab(p, 'activity');
    await p.getByText('No requests yet').waitFor();
    // A marker a reload would wipe: the row must arrive over the event stream, not a page load.
    await p.evaluate<string>("document.body.dataset.e2eMarker = 'same-page'");

    fake.enqueue({ kind: 'ok', text: 'Hello from the subscription', usage: { input: 21, output: 7 } });
    const { data: message, response } = await client()
      .messages.create({ model: `${CLAUDE}/${MODEL}`, max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the subscription' }]);
    expect(response.headers.get('x-leeway-connection')).toBe(CLAUDE);
    // The subscription token went upstream as a Bearer token, never the local key.
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers['authorization']).toBe(`Bearer ${OAUTH_TOKEN}`);
    expect(JSON.stringify(fake.requests[0]?.headers)).not.toContain(plain);

    const row = p.locator('table tbody tr').first();
    await row.waitFor({ timeout: 10_000 });
    expect(await p.evaluate<string>('document.body.dataset.e2eMarker')).toBe('same-page');
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    // Time, Key, Model, Connection, Status, Latency, TTFB, Tokens, Failover path
    expect(cells[1]).toBe(KEY_NAME);
    expect(cells[2]).toContain(MODEL);
    expect(cells[3]).toBe(CLAUDE);
    expect(cells[4]).toBe('200 OK');
    expect(cells[7]).toBe('21 → 7');
  });

  it('PROD-6 COOL-4 a 429 with retry-after 120 benches the API-key connection with a live countdown; Clear lifts it and the next request reaches it', async () => {
    const p = need(page, 'page');
    const fake = need(apiFake, 'API fake');

    fake.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const refused = await client()
      .messages.create({ model: `${API}/${MODEL}`, max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect(fake.requests.map((r) => r.response?.status)).toEqual([429]);

    await openTab(p, 'cooldowns');
    const row = p.getByTestId(`connection-${API}`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator('.badge').first().innerText()).toBe('Cooling down');
    expect(await p.locator('#tab-cooldowns .tab-count').innerText()).toMatch(/^[1-9]\d*$/);
    const countdown = row.locator('.countdown');
    const first = (await countdown.innerText()).trim();
    expect(first).toMatch(/^0[12]:\d\d$/);
    expect(seconds(first)).toBeGreaterThan(100);
    expect(seconds(first)).toBeLessThanOrEqual(120);
    // Live: the same element counts down without a reload.
    const later = await waitUntil(
      async () => (await countdown.innerText()).trim(),
      (text) => text !== first,
      'the countdown to tick',
    );
    expect(seconds(later)).toBeLessThan(seconds(first));
    expect(seconds(later)).toBeGreaterThan(100);

    // The pictures with something cooling: Cooldowns, and Connections with its status chip.
    keepForReadme(await snapLightAndDark(p, 'cooldowns', NEVER_SHOWN), 'cooldowns.png');
    await openTab(p, 'connections');
    const chip = p.getByTestId(`connection-row-${API}`).getByRole('timer');
    expect(seconds(await chip.innerText())).toBeGreaterThan(100);
    keepForReadme(await snapLightAndDark(p, 'connections', NEVER_SHOWN), 'connections.png');

    await openTab(p, 'cooldowns');
    await row.getByRole('button', { name: `Clear cooldown of ${API}` }).click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    await p.getByText('Nothing is cooling down — every connection is ready.').waitFor();

    // Usable again at once: the next request goes to that upstream and succeeds.
    fake.enqueue({ kind: 'ok', text: 'Back in service', usage: { input: 3, output: 2 } });
    const { data: message, response } = await client()
      .messages.create({ model: `${API}/${MODEL}`, max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(message.content).toEqual([{ type: 'text', text: 'Back in service' }]);
    expect(response.headers.get('x-leeway-connection')).toBe(API);
    expect(fake.requests.map((r) => r.response?.status)).toEqual([429, 200]);
    expect(fake.requests[1]?.headers['x-api-key']).toBe(API_SECRET);
  });

  it('PROD-1 PROD-13 every tab renders with the traffic so far (screenshots in e2e/artifacts)', async () => {
    const p = need(page, 'page');
    const { proxyUrl } = need(app, 'headless app');

    await openTab(p, 'connections');
    expect(await p.getByTestId(`connection-row-${API}`).getByText('OK', { exact: true }).count()).toBe(1);
    await snap(p, 'connections-after-clear');

    await openTab(p, 'keys');
    const keyRow = p.locator('table tbody tr', { hasText: KEY_NAME });
    await keyRow.waitFor();
    expect(await keyRow.locator('td').nth(3).innerText()).not.toBe('never');
    await snap(p, 'keys');

    await openTab(p, 'combos');
    await p.getByText('everyday', { exact: true }).first().waitFor();
    await snap(p, 'combos');

    await openTab(p, 'activity');
    const rows = p.locator('table tbody tr');
    await rows.nth(2).waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(3);
    // Newest first: the request after Clear, the 429, the subscription request.
    const statuses = (await rows.locator('td:nth-child(5)').allInnerTexts()).map((t) => t.trim());
    expect(statuses[0]).toMatch(/^200 OK/);
    expect(statuses[1]).toMatch(/^429 failed/);
    expect(statuses[2]).toMatch(/^200 OK/);
    keepForReadme(await snap(p, 'activity'), 'activity.png');

    await openTab(p, 'setup');
    // The key made in this session fills the snippets until a reload.
    const claudeSnippet = await p.locator('article.snippet pre').first().innerText();
    expect(claudeSnippet).toContain(`ANTHROPIC_BASE_URL=${proxyUrl}`);
    expect(claudeSnippet).toContain(need(plainKey, 'local key'));
    await snap(p, 'setup');

    await openTab(p, 'settings');
    await p.locator('form.settings-card').first().waitFor();
    expect(await p.locator('form.settings-card').count()).toBeGreaterThan(1);
    keepForReadme(await snap(p, 'settings'), 'settings.png');
  });

  it('PROD-1 the connection editor works from the keyboard: Tab stays inside, Escape closes, focus goes back to the opener', async () => {
    const p = need(page, 'page');
    await openTab(p, 'connections');
    const before = await p.locator('table tbody tr[data-testid]').count();

    // Open from the keyboard.
    const opener = p.getByRole('button', { name: 'Add connection', exact: true });
    await opener.focus();
    await p.keyboard.press('Enter');
    const dialog = p.getByRole('dialog', { name: 'Add connection' });
    await dialog.waitFor();
    expect((await focusInfo(p)).id).toBe('conn-name');

    // A subscription connection, so the Claude toggles are in the tab order too.
    await p.keyboard.type('kbd-only');
    await p.keyboard.press('Tab');
    expect((await focusInfo(p)).id).toBe('conn-kind');
    await dialog.locator('#conn-kind').selectOption('claude-oauth');
    await dialog.locator('#conn-low-priority').waitFor();

    // Forward through the whole dialog and around: every stop inside it, each field reached once per lap.
    const visited: FocusInfo[] = [];
    for (let i = 0; i < 40; i += 1) {
      await p.keyboard.press('Tab');
      const now = await focusInfo(p);
      visited.push(now);
      if (now.id === 'conn-kind') break;
    }
    expect(
      visited.every((f) => f.inDialog),
      JSON.stringify(visited),
    ).toBe(true);
    const ids = visited.map((f) => f.id || f.label);
    expect(ids[ids.length - 1]).toBe('conn-kind');
    for (const id of [
      'conn-base-url',
      'conn-access-token',
      'conn-refresh-token',
      'conn-expires-at',
      'conn-low-priority',
      'conn-auto-limit-reset',
      'conn-models',
      'conn-priority',
      'conn-max-concurrent',
      'conn-enabled',
      'conn-disable-cooling',
      'Cancel',
      'Add connection',
      'Close',
      'conn-name',
    ]) {
      expect(ids, `Tab reaches ${id}`).toContain(id);
    }
    // Order follows the form: the toggles after the token fields, the submit button last, then around to Close.
    expect(ids.indexOf('conn-low-priority')).toBeGreaterThan(ids.indexOf('conn-access-token'));
    expect(ids.indexOf('Add connection')).toBe(ids.indexOf('Close') - 1);
    expect(ids.indexOf('Close')).toBe(ids.indexOf('conn-name') - 1);

    // Shift+Tab from the first stop wraps to the last.
    await dialog.getByRole('button', { name: 'Close' }).focus();
    await p.keyboard.press('Shift+Tab');
    expect((await focusInfo(p)).label).toBe('Add connection');

    // Space flips a toggle; Escape then closes without saving.
    await dialog.locator('#conn-low-priority').focus();
    await p.keyboard.press('Space');
    expect(await dialog.locator('#conn-low-priority').isChecked()).toBe(true);
    await p.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusInfo(p)).toMatchObject({ tag: 'button', label: 'Add connection', inDialog: false });
    expect(await p.locator('table tbody tr[data-testid]').count()).toBe(before);
    expect(await p.getByTestId('connection-row-kbd-only').count()).toBe(0);

    // The same for an existing connection's editor, opened from its row.
    const edit = p.getByRole('button', { name: `Edit ${CLAUDE}` });
    await edit.focus();
    await p.keyboard.press('Enter');
    const editor = p.getByRole('dialog', { name: `Edit ${CLAUDE}` });
    await editor.waitFor();
    // The name cannot change on edit, so the first field to work on is the kind.
    expect((await focusInfo(p)).id).toBe('conn-kind');
    await p.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(await focusInfo(p)).toMatchObject({ tag: 'button', label: `Edit ${CLAUDE}`, inDialog: false });
  });

  it('PROD-1 the dashboard raised no script or console errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
