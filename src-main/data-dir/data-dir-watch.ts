import { statSync } from 'node:fs';

/** How often the data directory is looked at; two stat calls, cheap enough to never matter. */
export const WATCH_EVERY_MS = 2_000;

/** Notices the data directory or the database file vanishing (or being swapped) while running. */
export interface DataDirWatch {
  /** Looks now (after a failed write, say); the reason when storage is lost, else null. */
  check(): string | null;
  stop(): void;
}

type Identity = { dev: number; ino: number };

function identityOf(path: string): Identity | null {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return null;
  }
}

function describe(path: string, was: Identity): string | null {
  const now = identityOf(path);
  if (now === null) return `${path} was deleted`;
  // Same path, another inode: writes would go to a file nobody reads (moved away and recreated).
  return now.dev !== was.dev || now.ino !== was.ino ? `${path} was replaced` : null;
}

/**
 * Watches `paths` (the data dir and the database file) every `everyMs`; the first time one is gone
 * or replaced, calls `onLost` once with the reason and stops. An unlinked SQLite file still takes
 * writes without error, so only looking tells us the data is going nowhere.
 */
export function watchDataDir(
  paths: readonly string[],
  onLost: (reason: string) => void,
  everyMs = WATCH_EVERY_MS,
): DataDirWatch {
  const known = paths.map((path) => ({ path, was: identityOf(path) }));
  let lost: string | null = null;
  const check = (): string | null => {
    if (lost !== null) return lost;
    for (const { path, was } of known) {
      const reason = was === null ? `${path} is missing` : describe(path, was);
      if (reason === null) continue;
      lost = reason;
      clearInterval(timer);
      onLost(reason);
      return reason;
    }
    return null;
  };
  const timer = setInterval(check, everyMs);
  // The watch must never keep the process alive on its own.
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
