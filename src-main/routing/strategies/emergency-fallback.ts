/**
 * ROUTE-5: emergency fallback. The reference re-routes a request that failed for budget reasons (HTTP
 * 402, or billing / credit / budget wording) to a designated free model, skipping requests with tools
 * and capping output. Leeway has no provider of its own to fall back to, so its version works on
 * the combo's own targets: when on, a target whose last failure was about money (a spend cap, a
 * billing stop) stays in the plan but is asked only after every other target, until it serves again.
 * Precedence (QENV-5): `LEEWAY_EMERGENCY_FALLBACK` < the runtime flag in Settings (no restart).
 */
const BUDGET_WORDS =
  /billing|budget (has been |was |is )?exceeded|exceeded (the |your )?budget|max budget|out of credits?|credit balance|insufficient (credits?|balance|funds)|payment required/i;

/** Whether an upstream failure is about money (the reference's trigger: 402 or budget wording). */
export function isBudgetFailure(status: number, bodyText: string): boolean {
  return status === 402 || (status >= 400 && BUDGET_WORDS.test(bodyText));
}

/** The env value: `1/true/on/yes` on, `0/false/off/no` off, anything else (or unset): the default. */
export function parseEmergencyEnv(raw: string | undefined, fallback: boolean): boolean {
  const v = raw?.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'on' || v === 'yes') return true;
  if (v === '0' || v === 'false' || v === 'off' || v === 'no') return false;
  return fallback;
}

/** QENV-5: the runtime override (null = not set) wins over the environment. */
export function emergencyFallbackEnabled(env: boolean, override: boolean | null): boolean {
  return override ?? env;
}
