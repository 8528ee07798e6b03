import { useState } from 'react';

/** localStorage key remembering that the person closed the introduction. */
export const CONCEPT_DISMISSED_KEY = 'leeway:quota:concept-dismissed';

function readDismissed(): boolean {
  try {
    return window.localStorage.getItem(CONCEPT_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** QUI-2: what a pool is for, for someone opening the tab the first time; closed once, it stays closed. */
export function QuotaConceptCard() {
  const [dismissed, setDismissed] = useState(readDismissed);
  if (dismissed) return null;
  const dismiss = (): void => {
    try {
      window.localStorage.setItem(CONCEPT_DISMISSED_KEY, '1');
    } catch {
      // Private mode or a full store: the card just comes back next time.
    }
    setDismissed(true);
  };
  return (
    <aside className="quota-concept" aria-labelledby="quota-concept-title">
      <header>
        <h3 id="quota-concept-title">Share one account among several keys</h3>
        <button type="button" className="button small" onClick={dismiss} aria-label="Dismiss the introduction">
          Got it
        </button>
      </header>
      <p>
        A pool splits one upstream account’s windowed quota — say 1 500 requests an hour, or a Claude 5-hour window —
        among your local keys by weight. While the pool is below its saturation threshold a key may borrow what the
        others leave unused; above it, each key is held to its fair share. A <strong>hard</strong> key is then refused
        with a 429 that says why and when to retry, a <strong>soft</strong> key is only deprioritised, and a{' '}
        <strong>burst</strong> key ignores shares until the whole pool is full.
      </p>
    </aside>
  );
}
