/** At most this much upstream text reaches the log, the UI and the client's error message. */
export const MAX_UPSTREAM_EXCERPT = 200;

// Error bodies sometimes echo the credential that was refused; none of it may leave the classifier.
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\b(bearer|basic)\s+[a-z0-9._~+/=-]{6,}/gi, '$1 ***'],
  [/\bsk-[a-z0-9_-]{6,}/gi, 'sk-***'],
  [/\beyJ[a-z0-9_-]{5,}\.[a-z0-9_-]+\.[a-z0-9_-]*/gi, '***'],
  [
    /\b(api[_-]?key|x-api-key|access[_-]?token|refresh[_-]?token|token|secret|password|authorization|key)(["']?\s*[:=]\s*["']?)(?!(?:bearer|basic)\b|\*)[^\s"',;&}]{6,}/gi,
    '$1$2***',
  ],
  // Long opaque runs (keys, cookies) but not hyphenated model ids; a lost request id is acceptable.
  [/\b[a-z0-9]{32,}\b/gi, '***'],
  [/[a-z0-9_-]{48,}/gi, '***'],
];

/** Masks anything in upstream text that looks like a credential. */
export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, [re, replacement]) => out.replace(re, replacement), text);
}

/** Upstream text made fit to show: tags stripped, whitespace collapsed, secrets masked, shortened. */
export function excerptUpstreamText(text: string, max = MAX_UPSTREAM_EXCERPT): string {
  const flat = redactSecrets(
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `agentrouter/claude-sonnet-4 429 (was 403) quota_exhausted: 用户额度不足` — one line for a person. */
export function describeFailure(parts: {
  where: string;
  status: number | null;
  restatedFrom?: number;
  reason: string;
  detail: string;
}): string {
  const status = parts.status === null ? '' : ` ${parts.status}`;
  const was = parts.restatedFrom === undefined ? '' : ` (was ${parts.restatedFrom})`;
  const detail = parts.detail ? `: ${excerptUpstreamText(parts.detail)}` : '';
  return `${parts.where}${status}${was} ${parts.reason}${detail}`;
}

/** Upstream text may echo its own address (proxies, gateways); the connection's name stands for it. */
export function withoutUpstreamAddress(message: string, origin: string): string {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return message;
  }
  if (host === '' || !message.toLowerCase().includes(host.toLowerCase())) return message;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`(?:https?://)?${escaped(host)}[^\\s"',;]*`, 'gi'), '[upstream]');
}
