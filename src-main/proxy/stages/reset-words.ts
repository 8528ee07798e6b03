import { formatDuration } from '../../resilience/cooldown/format-duration';

/** When the first target can serve again: the connection and the instant (epoch ms). */
export interface EarliestReset {
  connection: string;
  until: number;
}

/** An instant as a person reads it on any machine: `14:32:05 UTC` (the date too when not today). */
export function clockOf(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 19)} UTC`;
}

/** `b is free again at 14:32:05 UTC (in 41 s)`: what a waiting person wants to know (issue 21 §11). */
export function freeAgain(reset: EarliestReset, now: number): string {
  return `${reset.connection} is free again at ${clockOf(reset.until, now)} (in ${formatDuration(Math.max(0, reset.until - now))})`;
}
