/** What a chaos upstream draws per request (TEST-1): its actions, their weights per phase, a seeded PRNG. */

/**
 * What the upstream does with one request: `ok` answers at once, `slow` after a random delay
 * (below the proxy's timeouts), `reset_before` destroys the socket without a byte, `reset_mid`
 * sends 200 headers and part of the body then destroys it, `hang` never answers (the proxy's
 * timeout must cut it), `unavailable` answers 503 with Anthropic's error envelope, `stall_error`
 * sends 503 headers and half of that envelope, then stalls (hangs after the headers);
 * `ok_error_body` answers 200 whose body is a rate-limit error (a stream: whose first event is),
 * `empty_ok` answers 200 with no body at all (issue 21 §1: neither may reach a client as a success).
 */
export const CHAOS_ACTIONS = [
  'ok',
  'slow',
  'reset_before',
  'reset_mid',
  'hang',
  'unavailable',
  'stall_error',
  'ok_error_body',
  'empty_ok',
] as const;
export type ChaosAction = (typeof CHAOS_ACTIONS)[number];
export type ChaosWeights = Readonly<Record<ChaosAction, number>>;

/** Mostly failures, every kind represented. */
export const STORM_WEIGHTS: ChaosWeights = {
  ok: 10,
  slow: 10,
  reset_before: 20,
  reset_mid: 10,
  hang: 10,
  unavailable: 30,
  stall_error: 5,
  ok_error_body: 5,
  empty_ok: 5,
};
/** Always a normal answer, some of them a little late. */
export const HEALED_WEIGHTS: ChaosWeights = {
  ok: 80,
  slow: 20,
  reset_before: 0,
  reset_mid: 0,
  hang: 0,
  unavailable: 0,
  stall_error: 0,
  ok_error_body: 0,
  empty_ok: 0,
};

/** mulberry32: a tiny, fast, seedable PRNG with a 2^32 period; plenty for drawing chaos. */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws one action in proportion to its weight; `roll` is in [0, 1). */
export function pickAction(weights: ChaosWeights, roll: number): ChaosAction {
  const total = CHAOS_ACTIONS.reduce((sum, action) => sum + Math.max(0, weights[action]), 0);
  if (total <= 0) return 'ok';
  let point = roll * total;
  for (const action of CHAOS_ACTIONS) {
    point -= Math.max(0, weights[action]);
    if (point < 0) return action;
  }
  return 'ok';
}

export const emptyTally = (): Record<ChaosAction, number> => ({
  ok: 0,
  slow: 0,
  reset_before: 0,
  reset_mid: 0,
  hang: 0,
  unavailable: 0,
  stall_error: 0,
  ok_error_body: 0,
  empty_ok: 0,
});
