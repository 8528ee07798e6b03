import { z } from 'zod';
import type { ClaudeUsage } from '../../src-shared/domain/claude';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';

export const CLAUDE_USAGE = 'claude-usage';

const windowSchema = z.object({
  utilization: z.number().nonnegative().optional(),
  resetsAtSeconds: z.number().nonnegative().optional(),
  status: z.string().optional(),
});

/** What a Claude response's unified headers said (see `lane/usage-windows.ts`), as it travels. */
const usageSchema = z.object({
  status: z.string().optional(),
  resetsAtSeconds: z.number().nonnegative().optional(),
  representativeClaim: z.string().optional(),
  fiveHour: windowSchema.optional(),
  sevenDay: windowSchema.optional(),
  windows: z.record(z.string(), windowSchema),
  overage: z
    .object({
      status: z.string().optional(),
      inUse: z.boolean().optional(),
      utilization: z.number().nonnegative().optional(),
      resetsAtSeconds: z.number().nonnegative().optional(),
    })
    .optional(),
  observedAt: z.number(),
});

/** The usage a fact states, or null when its JSON is not one. */
export function readUsageFact(json: string): ClaudeUsage | null {
  try {
    const parsed = usageSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type UsageEngine = Pick<ClaudeRuntime, 'absorbUsage' | 'onUsage'>;

export interface UsageShareDeps {
  nameOf(connectionId: string): string | null;
  idOf(name: string): string | null;
  share(kind: string, name: string, json: string, at: number): void;
  /** Runs an absorb with publishing off (no echo). */
  quietly(run: () => void): void;
}

/**
 * Claude usage windows on the team bus (issue 24 §4): the latest observation per Claude connection
 * name goes out; one from the team replaces ours when it was observed later. So an instance knows
 * another's account stands at 97 % of its 5h window without sending a request itself. The Claude
 * runtime starts after the bus: what arrives before it is kept (the latest per name) and handed
 * over on `attach`.
 */
export function createUsageShare(deps: UsageShareDeps) {
  let engine: UsageEngine | null = null;
  const early = new Map<string, ClaudeUsage>();

  // Taken in quietly, yet remembered as this instance's latest: what it sends back after an outage.
  const apply = (name: string, usage: ClaudeUsage, json: string): void => {
    const id = deps.idOf(name);
    if (engine === null || id === null) return;
    const into = engine;
    deps.quietly(() => {
      if (into.absorbUsage(id, usage)) deps.share(CLAUDE_USAGE, name, json, usage.observedAt);
    });
  };

  return {
    attach(claude: UsageEngine): void {
      engine = claude;
      claude.onUsage((connectionId, usage) => {
        const name = deps.nameOf(connectionId);
        if (name !== null) deps.share(CLAUDE_USAGE, name, JSON.stringify(usage), usage.observedAt);
      });
      for (const [name, usage] of early) apply(name, usage, JSON.stringify(usage));
      early.clear();
    },

    absorb(name: string, json: string): void {
      const usage = readUsageFact(json);
      if (usage === null) return;
      if (engine !== null) return apply(name, usage, json);
      const known = early.get(name);
      if (known === undefined || known.observedAt < usage.observedAt) early.set(name, usage);
    },
  };
}

export type UsageShare = ReturnType<typeof createUsageShare>;
