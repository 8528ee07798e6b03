/**
 * Label children cached per label combination, so a request costs map lookups, never a new
 * child or a joined key string: prom-client's own `labels()` hashes its arguments on every call.
 */
export function cache1<C>(make: (a: string) => C): (a: string) => C {
  const children = new Map<string, C>();
  return (a) => {
    let child = children.get(a);
    if (child === undefined) {
      child = make(a);
      children.set(a, child);
    }
    return child;
  };
}

export function cache2<C>(make: (a: string, b: string) => C): (a: string, b: string) => C {
  const inner = cache1((a) => cache1((b) => make(a, b)));
  return (a, b) => inner(a)(b);
}

/** The third label is a number (an HTTP status), turned into its label text once per child. */
export function cache3<C>(make: (a: string, b: string, c: string) => C): (a: string, b: string, c: number) => C {
  const inner = cache2((a, b) => {
    const byNumber = new Map<number, C>();
    return (c: number): C => {
      let child = byNumber.get(c);
      if (child === undefined) {
        child = make(a, b, String(c));
        byNumber.set(c, child);
      }
      return child;
    };
  });
  return (a, b, c) => inner(a, b)(c);
}

/** At most `max` distinct free-text label values (failover reasons, translation directions); the rest are "other". */
export function boundedLabel(max: number): (raw: string) => string {
  const known = new Set<string>();
  return (raw) => {
    if (known.has(raw)) return raw;
    if (known.size >= max || !/^[\w.>-]{1,64}$/.test(raw)) return 'other';
    known.add(raw);
    return raw;
  };
}
