/**
 * One conformance run: start the suite's upstream, get the gateway pointed at it (a Leeway through
 * its admin API, `--self` a Leeway started here, any other gateway by the user, told where),
 * run the checks, and undo everything it set up.
 */
import { startLeeway } from '../start-leeway';
import { CHECKS } from './catalog';
import type { Row } from './checks/types';
import { configureLeeway } from './gateway/leeway-admin';
import type { SuiteOptions } from './options';
import { createContext, runChecks } from './run-checks';
import { startConformanceUpstream } from './upstream/server';

export interface SuiteRun {
  rows: Row[];
  ms: number;
  /** The gateway that was tested. */
  url: string;
}

/** Ids `--only` named that no check has. */
export function unknownChecks(only: readonly string[] | undefined): string[] {
  return (only ?? []).filter((id) => !CHECKS.some((c) => c.id === id));
}

/** Rejects when `signal` aborts (Ctrl-C), so the run's cleanup still happens. */
function aborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) return reject(new Error('interrupted'));
    signal?.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
  });
}

export async function runConformance(
  options: SuiteOptions,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<SuiteRun> {
  const started = performance.now();
  const upstream = await startConformanceUpstream({
    port: options.upstreamPort ?? 0,
    models: [options.models.anthropic, options.models.openai],
  });
  const undo: (() => Promise<void>)[] = [() => upstream.close()];
  try {
    let url = options.url ?? '';
    let key = options.key ?? '';
    let admin =
      options.adminToken === undefined ? null : { adminUrl: options.adminUrl ?? url, token: options.adminToken };
    if (options.self) {
      const leeway = await startLeeway({});
      undo.unshift(() => leeway.stop());
      ({ url, key } = leeway);
      admin = { adminUrl: leeway.url, token: leeway.adminToken };
      log(`Started a Leeway of this checkout at ${url}`);
    }
    if (admin) {
      undo.unshift(await configureLeeway(admin, upstream, options.models));
      log(
        `Configured the Leeway at ${url}: connections conformance-*, combos ${options.models.anthropic} and ${options.models.openai} (removed afterwards)`,
      );
    } else {
      log(`The suite's upstream is ${upstream.url}. Point the gateway's Anthropic provider at ${upstream.url}`);
      log(
        `and its OpenAI provider at ${upstream.url}/v1, serving ${options.models.anthropic} and ${options.models.openai}`,
      );
      log('with two upstream keys (any strings: the session rows need two to tell connections apart).');
    }
    const ctx = createContext({ url, key, models: options.models, upstream, timeoutMs: options.timeoutMs });
    const checks = options.only ? CHECKS.filter((c) => options.only?.includes(c.id)) : CHECKS;
    const rows = await Promise.race([runChecks(checks, ctx), aborted(signal)]);
    return { rows, ms: Math.round(performance.now() - started), url };
  } finally {
    for (const step of undo) await step().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}
