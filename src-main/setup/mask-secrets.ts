/** Names whose values are secrets; `env_key` / `envKey` name a variable, not a secret. */
const SECRET_LINE =
  /^(\s*["']?(?![\w.-]*env_?key)[\w.-]*(?:key|token|secret|password|credential)[\w.-]*["']?\s*[:=]\s*["']?)([^"'\s,]+)/i;

/** A credential shown as `lw-a…wxyz`: enough to recognise, not to use. */
export function mask(value: string): string {
  return value.length <= 8 ? '…' : `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/**
 * A config text as a preview may show it: the key being written masked wherever it appears, and the
 * value of every `…key|token|secret… = value` line (JSON, TOML, YAML, .env alike) masked too.
 */
export function maskSecrets(text: string, key: string | null): string {
  const keyed = key ? text.split(key).join(mask(key)) : text;
  return keyed
    .split('\n')
    .map((line) => line.replace(SECRET_LINE, (_all, head: string, value: string) => head + mask(value)))
    .join('\n');
}
