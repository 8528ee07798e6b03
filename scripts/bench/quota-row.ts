/**
 * The quota fair-share micro-benchmark's row (issue 10): `scripts/bench/quota-micro.ts` exports
 * `benchFairShare()` → `{ medianNs, p99Ns, iterations }`; its median decision for 50 keys × 4
 * dimensions must stay under 20 µs. Loaded only when the file exists, so the bench runs without it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Check } from './report';

export const FAIR_SHARE_LABEL = 'quota fair-share decision, 50 keys × 4 dimensions';
/** The target for one decision (median). */
const TARGET_NS = 20_000;

interface FairShareResult {
  medianNs: number;
  p99Ns: number;
  iterations: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBench = (v: unknown): v is () => unknown => typeof v === 'function';

function asResult(value: unknown): FairShareResult | null {
  if (!isRecord(value)) return null;
  const { medianNs, p99Ns, iterations } = value;
  return isFiniteNumber(medianNs) && isFiniteNumber(p99Ns) && isFiniteNumber(iterations)
    ? { medianNs, p99Ns, iterations }
    : null;
}

/** The PASS/FAIL row plus a line of detail, or null when the micro-benchmark is not in this tree. */
export async function fairShareCheck(root: string): Promise<{ check: Check; detail: string } | null> {
  const file = join(root, 'scripts/bench/quota-micro.ts');
  if (!existsSync(file)) return null;
  const mod: unknown = await import(pathToFileURL(file).href);
  const run = isRecord(mod) ? mod.benchFairShare : undefined;
  if (!isBench(run)) throw new Error(`${file} does not export benchFairShare()`);
  const result = asResult(await Promise.resolve(run()));
  if (!result) throw new Error('benchFairShare() did not return { medianNs, p99Ns, iterations }');
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
  return {
    check: {
      label: FAIR_SHARE_LABEL,
      measured: `${us(result.medianNs)} median`,
      target: `< ${us(TARGET_NS)}`,
      pass: result.medianNs < TARGET_NS,
    },
    detail: `${FAIR_SHARE_LABEL}: median ${us(result.medianNs)}, p99 ${us(result.p99Ns)} over ${result.iterations} decisions`,
  };
}
