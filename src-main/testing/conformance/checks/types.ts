/** One row of the conformance table: a check, the client it drives, and what it found. */
import type { ConformanceUpstream } from '../upstream/types';

export type Client = 'Anthropic SDK' | 'OpenAI SDK' | 'Claude Code' | 'codex' | 'HTTP' | 'Gemini SDK' | 'Gemini CLI';
export type Result = 'pass' | 'fail' | 'n-a';

export interface Outcome {
  result: Result;
  /** One line a person can act on: what was sent and what arrived. */
  evidence: string;
}

/** The gateway under test and everything a check may use. */
export interface SuiteContext {
  /** The gateway's origin as Claude Code's ANTHROPIC_BASE_URL takes it (no /v1). */
  url: string;
  key: string;
  /** Model names the gateway routes to the suite's upstream. */
  models: { anthropic: string; openai: string };
  upstream: ConformanceUpstream;
  /** Per-run timeout of a CLI, and of each SDK call. */
  timeoutMs: number;
  /** A fresh nonce for one check's prompts. */
  nonce(): string;
  /** Runs `work` once per key for the whole suite: one CLI run serves several rows. */
  once<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export interface Check {
  /** Stable id for `--only` and tests, e.g. `thinking-json`. */
  id: string;
  title: string;
  client: Client;
  run(ctx: SuiteContext): Promise<Outcome>;
  /**
   * When it runs: 0 (default) all together; 1 after those (it reads the whole run's traffic);
   * 2 last of all (it may trip the gateway's breakers, as an upstream 5xx should).
   */
  phase?: 0 | 1 | 2;
}

export interface Row {
  id: string;
  title: string;
  client: Client;
  result: Result;
  evidence: string;
  ms: number;
}

export const pass = (evidence: string): Outcome => ({ result: 'pass', evidence });
export const fail = (evidence: string): Outcome => ({ result: 'fail', evidence });
export const notApplicable = (evidence: string): Outcome => ({ result: 'n-a', evidence });

/** A value shortened for a table cell. */
export function clip(value: unknown, max = 60): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
