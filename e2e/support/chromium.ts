import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags for a quiet, CI-safe Chromium: no sandbox (root in containers), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium to drive: `CHROMIUM_PATH` (set by scripts/test.mjs) or Debian's `/usr/bin/chromium`. */
export function findChromium(env: Record<string, string | undefined> = process.env): string | null {
  const candidates = [env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((p): p is string => Boolean(p));
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** Launches the system Chromium through playwright-core (no downloaded browsers). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error('No Chromium found: install Debian chromium or set CHROMIUM_PATH');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}
