import { STATUS_RESTATEMENT_RULES, type StatusRestatementRegistry } from './restatement-rules';

/** An upstream error as restatement sees it: after its body was read, before any classification. */
export interface RestatementInput {
  /** Service id (`agentrouter`), matched case-insensitively against the registry. */
  service: string;
  status: number;
  /** The error text to search: message and body; case is ignored. */
  text: string;
  /** The upstream's own Retry-After, if it gave one. */
  retryAfterMs: number | null;
}

export interface RestatementResult {
  status: number;
  /** The upstream's positive Retry-After, else the rule's default; passthrough keeps the input. */
  retryAfterMs: number | null;
  ruleId: string | null;
  fromStatus: number | null;
}

/**
 * RESTATE-1..3: corrects the status of a gateway that reports temporary quota exhaustion as a
 * permanent error, so every later consumer sees the retryable event it is. Passthrough otherwise.
 */
export function applyStatusRestatement(
  input: RestatementInput,
  registry: StatusRestatementRegistry = STATUS_RESTATEMENT_RULES,
): RestatementResult {
  const passthrough: RestatementResult = {
    status: input.status,
    retryAfterMs: input.retryAfterMs,
    ruleId: null,
    fromStatus: null,
  };
  const haystack = input.text.toLowerCase();
  if (!haystack.trim()) return passthrough;
  // An unknown service id is a bare host, which may be any word (`constructor`): own keys only.
  const service = input.service.toLowerCase();
  const rules = (Object.hasOwn(registry, service) ? registry[service] : undefined) ?? [];
  const rule = rules.find(
    (r) =>
      r.fromStatuses.includes(input.status) &&
      r.textMarkers.some((m) => haystack.includes(m.toLowerCase())) &&
      !(r.excludeMarkers ?? []).some((m) => haystack.includes(m.toLowerCase())),
  );
  if (!rule) return passthrough;
  const upstream = input.retryAfterMs !== null && input.retryAfterMs > 0 ? input.retryAfterMs : null;
  return {
    status: rule.toStatus,
    retryAfterMs: upstream ?? rule.defaultRetryAfterMs ?? null,
    ruleId: rule.id,
    fromStatus: input.status,
  };
}
