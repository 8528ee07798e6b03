import type { Page } from 'playwright-core';

/** The page as a person and a scraper see it: rendered text plus the live DOM (attributes, hidden nodes). */
export async function pageTextAndHtml(page: Page): Promise<string> {
  const [text, html] = await Promise.all([page.innerText('body'), page.content()]);
  return `${text}\n${html}`;
}

/** The secrets from `candidates` that appear anywhere in the page's text or HTML. */
export async function leakedSecrets(page: Page, candidates: readonly string[]): Promise<string[]> {
  const everything = await pageTextAndHtml(page);
  return candidates.filter((secret) => everything.includes(secret));
}
