/**
 * A Redis URL as it may appear in logs and the status panel: the password replaced by `***`
 * (QDRV-7 log lines must never carry it), e.g. `redis://:***@cache.lan:6379/0`.
 */
export function maskRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    const auth = u.password ? `${u.username}:***@` : u.username ? `${u.username}@` : '';
    return `${u.protocol}//${auth}${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    // Unparseable: hide everything between the scheme and the last '@'.
    return url.replace(/\/\/.*@/, '//***@');
  }
}

/** Removes a URL's password from any text (an error message may quote the URL it failed on). */
export function scrubSecret(text: string, url: string | null): string {
  if (!url) return text;
  let out = text.split(url).join(maskRedisUrl(url));
  const password = passwordOf(url);
  if (password) {
    for (const form of new Set([password, decodeSafe(password)])) out = out.split(form).join('***');
  }
  return out;
}

function passwordOf(url: string): string | null {
  try {
    return new URL(url).password || null;
  } catch {
    return /\/\/[^/]*:([^@/]*)@/.exec(url)?.[1] ?? null;
  }
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
