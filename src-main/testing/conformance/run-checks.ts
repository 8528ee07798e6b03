/**
 * Runs checks against one gateway, phase by phase (see Check.phase), each phase all at once: the
 * CLIs are the slow part and mostly wait. A check that throws is a failure with the error as
 * evidence; one that takes too long is a failure too.
 */
import { randomBytes } from 'node:crypto';
import { NotReached, errorText } from './checks/upstream-facts';
import type { Check, Outcome, Row, SuiteContext } from './checks/types';
import type { ConformanceUpstream } from './upstream/types';

export interface Target {
  url: string;
  key: string;
  models: { anthropic: string; openai: string };
  upstream: ConformanceUpstream;
  timeoutMs: number;
}

export function createContext(target: Target): SuiteContext {
  const memo = new Map<string, Promise<unknown>>();
  return {
    ...target,
    url: target.url.replace(/\/+$/, ''),
    nonce: () => randomBytes(6).toString('hex'),
    once<T>(key: string, work: () => Promise<T>): Promise<T> {
      let running = memo.get(key) as Promise<T> | undefined;
      if (running === undefined) {
        running = work();
        memo.set(key, running);
      }
      return running;
    },
  };
}

async function judge(check: Check, ctx: SuiteContext): Promise<Row> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    // A CLI session is two runs in a row, each with its own timeout.
    timer = setTimeout(() => resolve({ result: 'fail', evidence: 'no verdict in time' }), ctx.timeoutMs * 3);
  });
  let outcome: Outcome;
  try {
    outcome = await Promise.race([check.run(ctx), deadline]);
  } catch (error) {
    outcome = { result: 'fail', evidence: error instanceof NotReached ? error.message : errorText(error) };
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  return { id: check.id, title: check.title, client: check.client, ...outcome, ms };
}

/** Every check's row, in the order given. */
export async function runChecks(checks: readonly Check[], ctx: SuiteContext): Promise<Row[]> {
  const rows = new Map<string, Row>();
  for (const phase of [0, 1, 2]) {
    const now = checks.filter((c) => (c.phase ?? 0) === phase);
    await Promise.all(now.map(async (c) => rows.set(c.id, await judge(c, ctx))));
  }
  return checks.map((c) => rows.get(c.id)).filter((row): row is Row => row !== undefined);
}
