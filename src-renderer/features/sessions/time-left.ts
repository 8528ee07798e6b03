/** "in 42 min", "in 35 s", "now": how long until `at`, coarse enough to read at a glance. */
export function timeLeft(at: number, now: number): string {
  const ms = at - now;
  if (ms <= 0) return 'now';
  if (ms < 60_000) return `in ${Math.ceil(ms / 1000)} s`;
  if (ms < 3_600_000) return `in ${Math.ceil(ms / 60_000)} min`;
  return `in ${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}
