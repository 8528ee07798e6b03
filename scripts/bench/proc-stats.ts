/** CPU time and memory of another process, read from /proc (Linux only). */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/** Clock ticks per second for utime/stime (`getconf CLK_TCK`, 100 when that fails). */
export function clockTicks(): number {
  if (ticksPerSecond !== null) return ticksPerSecond;
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    ticksPerSecond = Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    ticksPerSecond = 100;
  }
  return ticksPerSecond;
}

/** utime + stime of every thread of `pid`, in milliseconds (resolution: one clock tick). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so utime (field 14) and stime (field 15) sit at 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

export interface Memory {
  /** Current resident set, bytes. */
  rss: number;
  /** Peak resident set since the process started (VmHWM), bytes. */
  peakRss: number;
}

export function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : NaN;
  };
  return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
}

/** True when /proc can be read for this process (so the CPU and RSS columns mean something). */
export function procAvailable(): boolean {
  try {
    cpuMs(process.pid);
    return true;
  } catch {
    return false;
  }
}

/** CPU milliseconds per thread name of `pid` (threads of one name summed): where a process's CPU goes. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
    out.set(name, (out.get(name) ?? 0) + ms);
  }
  return out;
}
