/**
 * A 2xx upstream answer Leeway cannot translate (an event past the cap, a body that is no JSON
 * object). `what` says what the upstream sent, as a noun phrase ("an SSE event over 64 MiB"), so
 * the proxy can name it in the client's error event and the failover detail ("answered 200 with …").
 * The bridge destroys its body with this error; the upstream request is cancelled with it.
 */
export class TranslationFailure extends Error {
  constructor(readonly what: string) {
    super(`the upstream answered ${what}, which Leeway cannot translate`);
    this.name = 'TranslationFailure';
  }
}
