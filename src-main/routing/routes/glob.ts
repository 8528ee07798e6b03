/** ASCII letters fold to lower case; model names are ASCII, other characters compare as they are. */
function fold(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

/**
 * `*` matches any run (also empty, also `/`), `?` exactly one character, the rest literally and
 * ignoring ASCII case. Iterative with one backtrack point per `*`: linear for the patterns routes
 * use, never exponential, and no RegExp built from user text.
 */
export function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pc = p < pattern.length ? pattern.charCodeAt(p) : -1;
    if (pc === 0x2a) {
      starP = p++;
      starT = t;
    } else if (pc === 0x3f || (pc !== -1 && fold(pc) === fold(text.charCodeAt(t)))) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 0x2a) p++;
  return p === pattern.length;
}

/** True for `*`, `**` …: a glob that matches every model, so routes after it never decide. */
export function isCatchAll(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) if (pattern.charCodeAt(i) !== 0x2a) return false;
  return pattern.length > 0;
}
