import { useEffect, useState } from 'react';

/**
 * The wall clock, re-read every `intervalMs` while `active`: drives live countdowns.
 * Inactive callers set no timer, so a list of healthy rows costs nothing.
 */
export function useNow(active = true, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return active ? now : Date.now();
}
