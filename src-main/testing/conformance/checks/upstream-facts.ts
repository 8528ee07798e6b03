/** What the upstream saw and sent for one check's nonce, with the failure to report when it saw nothing. */
import type { SentFacts, UpstreamExchange } from '../upstream/types';
import type { SuiteContext } from './types';

export class NotReached extends Error {}

/** The first exchange of the nonce whose answer carried `key`; throws NotReached when none did. */
export function sentFor<K extends keyof SentFacts>(
  ctx: SuiteContext,
  nonce: string,
  key: K,
): { exchange: UpstreamExchange; value: NonNullable<SentFacts[K]> } {
  for (const exchange of ctx.upstream.byNonce(nonce)) {
    const value = exchange.sent[key];
    if (value !== undefined && value !== null) return { exchange, value };
  }
  throw new NotReached(
    `the suite's upstream never answered this request (${nonce}); is the gateway's upstream ${ctx.upstream.url}?`,
  );
}

/** The message of whatever a client call threw, one line. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch says only "fetch failed"; what happened (a reset, a refusal) is its cause.
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  const text = `${error.constructor.name}: ${error.message}${cause}`;
  return text.split('\n')[0] ?? text;
}
