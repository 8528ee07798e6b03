/**
 * Shared moves for specs that drive the dashboard: tabs, screenshots (checked for secrets first),
 * light and dark variants, and the README copies that change only on request.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT } from './headless-app';
import { leakedSecrets } from './page-text';

/** Screenshots for a person to look at (CI artifacts; git-ignored). */
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
/** The README's screenshots (checked in). */
export const SCREENSHOTS = path.join(ROOT, 'e2e', 'screenshots');

/** The README's screenshots change only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
export function keepForReadme(file: string, name: string): void {
  if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(file, path.join(SCREENSHOTS, name));
}

/** A value an earlier step should have set; fails the step that needs it with a readable reason. */
export function need<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} is not ready (an earlier step failed)`);
  return value;
}

/** Full-page screenshot into e2e/artifacts/<name>.png, after checking that none of `neverShown` is on the page. */
export async function snap(page: Page, name: string, neverShown: readonly string[]): Promise<string> {
  expect(await leakedSecrets(page, neverShown), `secrets visible on ${name}`).toEqual([]);
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * A screenshot that shows all of `element` (e.g. a modal taller than the window, which a full-page
 * shot would cut off): the viewport grows to fit it for the picture, then goes back.
 */
export async function snapWhole(
  page: Page,
  element: Locator,
  name: string,
  neverShown: readonly string[],
): Promise<string> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const box = await element.boundingBox();
  const height = Math.ceil(Math.max(viewport.height, (box?.height ?? 0) + 2 * (box?.y ?? 0)));
  await page.setViewportSize({ width: viewport.width, height });
  try {
    return await snap(page, name, neverShown);
  } finally {
    await page.setViewportSize(viewport);
  }
}

/**
 * The same page in the light and the dark colour scheme (`<name>.png`, `<name>-dark.png`), back to
 * light afterwards. Returns the light file.
 */
export async function snapLightAndDark(page: Page, name: string, neverShown: readonly string[]): Promise<string> {
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await snap(page, name, neverShown);
  await page.emulateMedia({ colorScheme: 'dark' });
  // The sheet switches on the media query. (page.evaluate, not waitForFunction: the dashboard's CSP forbids eval.)
  expect(await page.evaluate<boolean>("matchMedia('(prefers-color-scheme: dark)').matches")).toBe(true);
  await snap(page, `${name}-dark`, neverShown);
  await page.emulateMedia({ colorScheme: 'light' });
  return light;
}

/** Clicks a tab by its id (the label may carry a live count) and waits for its view's heading. */
export async function openTab(page: Page, id: string): Promise<void> {
  await page.locator(`#tab-${id}`).click();
  await page.waitForURL((url) => url.hash === `#${id}`);
  await page.locator(`h2#${id}-title`).waitFor();
}

/**
 * Polls `read` until `done` accepts its value (Node-side, since the dashboard's CSP rules out
 * `page.waitForFunction`); returns the accepted value or fails with the last one seen.
 */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What has keyboard focus: its id, tag, accessible-ish label, and whether it sits inside an open dialog. */
export interface FocusInfo {
  id: string;
  tag: string;
  label: string;
  inDialog: boolean;
}

/** Runs in the page (as source text: this project's Node typings have no DOM). */
const FOCUS_INFO = `(() => {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement)) return { id: '', tag: '', label: '', inDialog: false };
  const label = el.getAttribute('aria-label') ?? (el.tagName === 'BUTTON' ? (el.textContent ?? '').trim() : '');
  return { id: el.id, tag: el.tagName.toLowerCase(), label, inDialog: el.closest('[role="dialog"]') !== null };
})()`;

export function focusInfo(page: Page): Promise<FocusInfo> {
  return page.evaluate<FocusInfo>(FOCUS_INFO);
}
