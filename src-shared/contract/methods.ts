import { z } from 'zod';
import { connectionInputSchema, connectionNameSchema, type ConnectionView } from '../domain/connection';
import { comboInputSchema, type ComboView } from '../domain/combo';
import { localKeyInputSchema, type CreatedLocalKey, type LocalKeyView } from '../domain/local-key';
import { claudeImportSchema, type ClaudeConnectionStatus } from '../domain/claude';
import type { ConnectionTestResult } from '../domain/connection-test';
import { cooldownClearSchema, type CooldownSnapshot } from '../domain/cooldown';
import type { RequestDecision } from '../domain/decision';
import { requestLogFilterSchema, type ActivityCsv, type RequestLogEntry } from '../domain/request-log';
import type { RequestQueueView } from '../domain/request-queue-view';
import { settingsPatchSchema, type Settings } from '../domain/settings';
import type { StorageStatus } from '../domain/storage-status';
import { resiliencePatchSchema, type ResilienceSettings } from '../domain/resilience-settings';
import { pinClearSchema, type SessionPinView } from '../domain/affinity';
import type { LeaseView } from '../domain/lease';
import { leaseClearSchema } from '../domain/lease-clear';
import { heldActSchema, type HeldRequestView } from '../domain/held';
import { routesSchema, type Route } from '../domain/route';
import {
  quotaPlanInputSchema,
  quotaPoolInputSchema,
  type QuotaPlanView,
  type QuotaPoolUsage,
  type QuotaPoolView,
  type QuotaStoreStatus,
} from '../domain/quota';
import { overviewRangeSchema, type OverviewSeries, type UsageSummary } from '../domain/overview';
import {
  agentOnlySchema,
  agentSetupInputSchema,
  agentSnippetInputSchema,
  type AgentSetupChange,
  type AgentSetupResult,
  type AgentSetupStatus,
  type AgentSnippet,
  type AgentUndoResult,
} from '../domain/agent-setup';

const byName = z.object({ name: z.string().trim().min(1) });
/** Issue 13 §6: the local key Claude Code will send (as ANTHROPIC_AUTH_TOKEN). */
const claudeCodeSetupInput = z.object({ authToken: z.string().trim().min(1).max(512) }).strict();
const byId = z.object({ id: z.string().trim().min(1) });
const none = z.object({}).strict().optional();

/** A cooling item to probe (issue 13 §8): a connection, a provider's breaker, or one model lockout (by its key). */
export const probeTargetSchema = z.discriminatedUnion('target', [
  z.object({ target: z.literal('connection'), connection: z.string().trim().min(1) }).strict(),
  z.object({ target: z.literal('provider'), provider: z.string().trim().min(1) }).strict(),
  z.object({ target: z.literal('model'), key: z.string().trim().min(1) }).strict(),
]);
export type ProbeTarget = z.infer<typeof probeTargetSchema>;

/** What a probe did: which connection answered (or not), and whether the item was lifted. */
export interface ProbeResult {
  /** The connection the request went to; null when none could be asked (all terminal, unknown). */
  connection: string | null;
  /** True when the upstream answered the probe with a success. */
  ok: boolean;
  /** True when the cooldown, breaker or lockout was lifted, so the next request goes there. */
  lifted: boolean;
  /** One sentence for the person who pressed it. */
  message: string;
}

export interface ProxyInfo {
  proxyUrl: string;
  dashboardUrl: string;
  dataDir: string;
  version: string;
  paused: boolean;
  startedAt: number;
  mode: 'electron' | 'headless';
  /** Issue 21 §16: whether the data directory takes writes now (the dashboard's banner). */
  storage: StorageStatus;
}

export interface ActivitySummary {
  requestsToday: number;
  errorsToday: number;
}

/**
 * The only list of what a UI (window, browser dashboard, tray) can ask the core.
 * Each entry: an input schema and, as a phantom, the output type.
 */
export const methods = {
  'app.info': { input: none, output: {} as ProxyInfo },
  'app.setPaused': { input: z.object({ paused: z.boolean() }).strict(), output: {} as ProxyInfo },
  'connections.list': { input: none, output: [] as ConnectionView[] },
  'connections.upsert': { input: connectionInputSchema, output: {} as ConnectionView },
  'connections.remove': { input: byName, output: { removed: true } as { removed: boolean } },
  'keys.list': { input: none, output: [] as LocalKeyView[] },
  'keys.create': { input: localKeyInputSchema, output: {} as CreatedLocalKey },
  'keys.revoke': { input: byId, output: { revoked: true } as { revoked: boolean } },
  'combos.list': { input: none, output: [] as ComboView[] },
  'combos.upsert': { input: comboInputSchema, output: {} as ComboView },
  'combos.remove': { input: byName, output: { removed: true } as { removed: boolean } },
  /** Model routes in order; the first whose glob matches the requested model decides. */
  'routes.list': { input: none, output: [] as Route[] },
  /** Replaces the whole ordered list; every `to` must name something known and every route be reachable. */
  'routes.replace': { input: z.object({ routes: routesSchema }).strict(), output: [] as Route[] },
  /** Live session pins (AFF): session, key, connection, target, expiry. */
  'sessions.list': { input: none, output: [] as SessionPinView[] },
  /** Drops one pin, a connection's pins, or all; the sessions start over on their next request. */
  'sessions.clear': { input: pinClearSchema, output: { cleared: 0 } as { cleared: number } },
  /** Active exclusive leases (LEASE); the owner id never leaves the core, only a prefix of its hash. */
  'leases.list': { input: none, output: [] as LeaseView[] },
  /** Ends every active lease or one connection's (reason `cleared`); the owners' next requests are refused. */
  'leases.clear': { input: leaseClearSchema, output: { cleared: 0 } as { cleared: number } },
  /** Quota pools (QFAIR, QUI-12); `[]` with none. */
  'quota.listPools': { input: none, output: [] as QuotaPoolView[] },
  /** Creates or replaces a pool by name (keys and connections by name; unknown ones are refused with their path). */
  'quota.upsertPool': { input: quotaPoolInputSchema, output: {} as QuotaPoolView },
  'quota.removePool': { input: byName, output: { removed: true } as { removed: boolean } },
  /** Per dimension and key: consumed, fair share, remaining, borrowing, mode, burn rate (by pool id or name). */
  'quota.poolUsage': { input: byId, output: {} as QuotaPoolUsage },
  /** The effective plan of every connection (QPLAN-1/3). */
  'quota.listPlans': { input: none, output: [] as QuotaPlanView[] },
  /** Stores a manual plan override for a connection (QUI-14). */
  'quota.setPlan': { input: quotaPlanInputSchema, output: {} as QuotaPlanView },
  /** Drops the override: the connection falls back to its catalog plan or none (QUI-15). */
  'quota.removePlan': {
    input: z.object({ connection: z.string().trim().min(1) }).strict(),
    output: {} as QuotaPlanView,
  },
  /** Which counter store is in force and why (QDRV); change it with settings.update({ quotaStore }). */
  'quota.storeStatus': { input: none, output: {} as QuotaStoreStatus },
  'settings.get': { input: none, output: {} as Settings },
  'settings.update': { input: settingsPatchSchema, output: {} as Settings },
  /** Newest first; filters by connection, model, ok/error, time range (since/until, epoch ms) and free-text search (issue 13). */
  'activity.list': {
    input: requestLogFilterSchema
      .extend({
        limit: z.number().int().min(1).max(1000).optional(),
        beforeId: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    output: [] as RequestLogEntry[],
  },
  'activity.summary': { input: none, output: {} as ActivitySummary },
  /** Issue 24: why a request went where it went (`last`: the newest request that has a record). */
  'activity.decision': {
    input: z.object({ id: z.union([z.number().int().positive(), z.literal('last')]) }).strict(),
    output: {} as RequestDecision,
  },
  /** The rows of a filter as a CSV file made in the core (newest first, capped); names only, never keys or bodies. */
  'activity.exportCsv': { input: requestLogFilterSchema.optional(), output: {} as ActivityCsv },
  'cooldowns.list': { input: none, output: {} as CooldownSnapshot },
  /** Per connection with maxConcurrent: queue depth, in flight, recent wait p50/p95 and its budgets (QUEUE-1). */
  'queues.list': { input: none, output: [] as RequestQueueView[] },
  /** Issue 24 §2: requests waiting right now (cooldown hold, queue), oldest first. */
  'held.list': { input: none, output: [] as HeldRequestView[] },
  /** Cancel a held request, let it use any connection now, or release its session's lease and pin. */
  'held.act': { input: heldActSchema, output: { done: true } as { done: true } },
  /** Clears transient state only; terminal states need connections.reset (COOL-10). */
  'cooldowns.clear': { input: cooldownClearSchema, output: { cleared: 0 } as { cleared: number } },
  /** Lists the upstream's models with the connection's own credential (no tokens spent). */
  'connections.test': { input: byName, output: {} as ConnectionTestResult },
  /** Clears everything of one connection, terminal states included. */
  'connections.reset': { input: byName, output: {} as ConnectionView },
  /** Creates or updates a claude-oauth connection from the credentials Claude Code stores on this machine. */
  'claude.importCredentials': { input: claudeImportSchema, output: {} as ConnectionView },
  /** Usage windows, low-priority lane and last reset of every Claude subscription connection. */
  'claude.status': { input: none, output: [] as ClaudeConnectionStatus[] },
  /** Resets every provider breaker and clears all model lockouts (BRK-7). */
  'resilience.reset': { input: none, output: { resetCount: 0 } as { resetCount: number } },
  /** The resilience settings in force (defaults < env < stored); sections: cooldown, breaker, windowGate, modelLockout, providerErrorRules. */
  'resilience.getSettings': { input: none, output: {} as ResilienceSettings },
  /** Deep-merges a patch of sections into the stored settings; shape and refused ranges are checked here, clamping on merge. */
  'resilience.updateSettings': { input: resiliencePatchSchema, output: {} as ResilienceSettings },
  // --- overview (issue 13 §4, §8) ---
  /** Requests, tokens, errors, failovers (by connection and key) and p50/p95 latency over the last hour / day / week. */
  'overview.series': { input: z.object({ range: overviewRangeSchema }).strict(), output: {} as OverviewSeries },
  /** Per connection (Claude usage windows) and per quota pool: used / limit / resets-at; also `GET /api/usage/summary`. */
  'overview.usage': { input: none, output: {} as UsageSummary },
  // --- models and client setup (issue 13 §5, §6) ---
  /** What each connection's upstream listed on its own models endpoint (connections that serve any model). */
  'models.discovered': {
    input: z
      .object({ connection: z.string().trim().min(1).optional() })
      .strict()
      .optional(),
    output: [] as DiscoveredModelsView[],
  },
  /** What "Configure Claude Code" would write to Claude Code's settings.json (nothing is written). */
  'setup.claudeCodePreview': { input: claudeCodeSetupInput, output: {} as ClaudeCodeSettingsChange },
  /** Writes the env block of Claude Code's settings.json (backup first); the token must be a local key. */
  'setup.configureClaudeCode': { input: claudeCodeSetupInput, output: {} as ClaudeCodeSetupResult },
  /** Restores settings.json from Leeway's newest backup (removes it when there was no file before). */
  'setup.undoClaudeCode': { input: none, output: {} as ClaudeCodeUndoResult },
  /** Where settings.json is, whether it points at this Leeway, and the backup Undo would restore (issue 21 §17). */
  'setup.claudeCodeStatus': { input: none, output: {} as ClaudeCodeSetupStatus },
  // --- one-click setup of the other coding agents (issue 23 §2): one set of methods, the agent by id ---
  /** codex, opencode, Qwen Code, Gemini CLI, aider: their files, configured / not / elsewhere, and what Undo restores. */
  'setup.agents.list': { input: none, output: [] as AgentSetupStatus[] },
  /** What Apply would write to the agent's files (nothing is written); the token must be a local key. */
  'setup.agent.preview': { input: agentSetupInputSchema, output: {} as AgentSetupChange },
  /** Merges Leeway's entries into the agent's files (a backup of each first); every other setting stays. */
  'setup.agent.apply': { input: agentSetupInputSchema, output: {} as AgentSetupResult },
  /** Restores the agent's files from Leeway's newest backups (removes those that did not exist). */
  'setup.agent.undo': { input: agentOnlySchema, output: {} as AgentUndoResult },
  /** The copy-paste form of the setup; without a key, a placeholder stands in (the tray). */
  'setup.agent.snippet': { input: agentSnippetInputSchema, output: {} as AgentSnippet },
  // --- everyday ergonomics (issue 13 §8) ---
  /**
   * Renames a connection in place (same id): combo targets, routes, key allowlists follow; pools, plans,
   * pins and leases hold the id. Activity rows keep the name they were logged under.
   */
  'connections.rename': {
    input: z.object({ from: z.string().trim().min(1), to: connectionNameSchema }).strict(),
    output: {} as ConnectionView,
  },
  /** Renames a local key in place (same id, same secret); quota allocations hold the id. */
  'keys.rename': {
    input: z.object({ id: z.string().trim().min(1), name: localKeyInputSchema.shape.name }).strict(),
    output: {} as LocalKeyView,
  },
  /** Renames a combo in place (same id, strategy, targets); routes that name it follow. */
  'combos.rename': {
    input: z.object({ from: z.string().trim().min(1), to: comboInputSchema.shape.name }).strict(),
    output: {} as ComboView,
  },
  /**
   * "Probe now" for one cooling item: one cheap request (the upstream's model list, no tokens) with the
   * connection's own credential; the cooldown, breaker or lockout is lifted only when it answers.
   */
  'cooldowns.probe': { input: probeTargetSchema, output: {} as ProbeResult },
} as const;

export type MethodMap = typeof methods;
export type MethodName = keyof MethodMap;
export type MethodInput<M extends MethodName> = z.input<MethodMap[M]['input']>;
export type MethodParsedInput<M extends MethodName> = z.output<MethodMap[M]['input']>;
export type MethodOutput<M extends MethodName> = MethodMap[M]['output'];

export const METHOD_NAMES = Object.keys(methods) as MethodName[];

export function isMethodName(value: string): value is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, value);
}

// --- models and client setup (issue 13 §5, §6) ---

/** One connection's discovered models, for the connection editor's read-only list. */
export interface DiscoveredModelsView {
  connection: string;
  /** False when the connection names its own models: then nothing is asked and nothing listed. */
  discoverable: boolean;
  models: { id: string; displayName: string | null }[];
  /** The last successful listing; null before the first. */
  fetchedAt: number | null;
  attemptedAt: number | null;
  /** Why the last attempt failed (the list shown is the last good one); null after a success. */
  lastError: string | null;
}

/** One line of a preview diff. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** What "Configure Claude Code" changes in settings.json; secrets appear masked. */
export interface ClaudeCodeSettingsChange {
  path: string;
  /** False: the file does not exist yet and will be created. */
  exists: boolean;
  /** The env entries set (the token masked). */
  env: Record<string, string>;
  /** Env entries taken out (ANTHROPIC_API_KEY). */
  removed: string[];
  diff: DiffLine[];
  /** False when the file already says exactly this (then nothing is written). */
  changes: boolean;
}

export interface ClaudeCodeSetupResult extends ClaudeCodeSettingsChange {
  /** Where the previous file went; null when nothing needed writing. */
  backupPath: string | null;
}

/** Claude Code's settings.json as the Setup tab finds it on load: what Undo can still do survives a reload. */
export interface ClaudeCodeSetupStatus {
  path: string;
  /** True when its env sends Claude Code to this Leeway (ANTHROPIC_BASE_URL is its proxy URL). */
  configured: boolean;
  /** Leeway's newest backup of the file, which Undo restores; null when there is none. */
  backup: {
    path: string;
    /** When "Configure" made it (epoch ms). */
    at: number;
    /** True when there was no settings.json before, so Undo removes the file. */
    removesFile: boolean;
  } | null;
}

export interface ClaudeCodeUndoResult {
  path: string;
  restoredFrom: string;
  /** True when there was no settings.json before, so undo removed it. */
  removedFile: boolean;
}
