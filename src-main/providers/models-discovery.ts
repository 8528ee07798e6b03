/**
 * Model discovery (issue 13 §5), the pure part: what an upstream's own models list says, when a
 * connection's list is due again, and what a failed refresh keeps. No clock, no I/O: callers pass
 * `now` and the fetched JSON.
 */
import { parseGeminiModelPage } from './gemini/gemini-models-page';
import { z } from 'zod';
import type { ApiFormat, ConnectionView } from '../../src-shared/domain/connection';
import type { DiscoveredModel } from '../kernel/discovered-model';

export type { DiscoveredModel } from '../kernel/discovered-model';

/** What Leeway knows of one connection's upstream list; persisted so a restart lists it at once. */
export interface DiscoveryEntry {
  connectionId: string;
  /** The base URL the list came from: another URL means another upstream, so the entry is stale. */
  baseUrl: string;
  models: readonly DiscoveredModel[];
  /** The last successful listing; null before the first one. */
  fetchedAt: number | null;
  attemptedAt: number;
  /** Why the last attempt failed; null after a success. */
  lastError: string | null;
}

/** A refresh's result: the whole list, or why there is none this time. */
export type ListOutcome = { kind: 'listed'; models: DiscoveredModel[] } | { kind: 'failed'; error: string };

/** A success is refreshed hourly; a failure is retried sooner, never in a tight loop. */
export const REFRESH_INTERVAL_MS = 60 * 60_000;
export const RETRY_AFTER_FAILURE_MS = 10 * 60_000;
/** Bounds on what one upstream can make Leeway hold (OpenRouter lists a few hundred). */
export const MAX_DISCOVERED_MODELS = 2_000;
export const MAX_PAGES = 20;
const MAX_ID_LENGTH = 256;

/** Only a connection that serves any model is asked: a connection's own list is the operator's word. */
export function isDiscoverable(view: ConnectionView): boolean {
  return view.models.length === 0;
}

/** The entry's models when it belongs to this connection as configured now, else none. */
export function currentModels(view: ConnectionView, entry: DiscoveryEntry | undefined): readonly DiscoveredModel[] {
  if (!entry || !isDiscoverable(view) || entry.baseUrl !== view.effectiveBaseUrl) return [];
  return entry.models;
}

/** Whether a refresh should ask this connection's upstream now. */
export function isDue(view: ConnectionView, entry: DiscoveryEntry | undefined, now: number): boolean {
  if (!isDiscoverable(view) || !view.enabled) return false;
  if (!entry || entry.baseUrl !== view.effectiveBaseUrl) return true;
  const wait = entry.lastError === null ? REFRESH_INTERVAL_MS : RETRY_AFTER_FAILURE_MS;
  return now - entry.attemptedAt >= wait;
}

/** The entry after an attempt: a success replaces the list, a failure keeps the last one (same upstream only). */
export function nextEntry(
  previous: DiscoveryEntry | undefined,
  connection: { id: string; baseUrl: string },
  outcome: ListOutcome,
  now: number,
): DiscoveryEntry {
  const base = { connectionId: connection.id, baseUrl: connection.baseUrl, attemptedAt: now };
  if (outcome.kind === 'listed') return { ...base, models: outcome.models, fetchedAt: now, lastError: null };
  const same = previous !== undefined && previous.baseUrl === connection.baseUrl;
  return {
    ...base,
    models: same ? previous.models : [],
    fetchedAt: same ? previous.fetchedAt : null,
    lastError: outcome.error.slice(0, 300),
  };
}

/** Whether the models a client can see changed (not just the attempt's time). */
export function modelsChanged(before: DiscoveryEntry | undefined, after: DiscoveryEntry): boolean {
  const a = before?.models ?? [];
  const b = after.models;
  return a.length !== b.length || a.some((m, i) => m.id !== b[i]?.id || m.displayName !== b[i]?.displayName);
}

const itemSchema = z.object({
  id: z.string().min(1).max(MAX_ID_LENGTH),
  display_name: z.string().optional().catch(undefined),
  created_at: z.string().optional().catch(undefined),
  created: z.number().optional().catch(undefined),
});
const pageSchema = z.object({
  data: z.array(z.unknown()),
  has_more: z.boolean().optional().catch(undefined),
  last_id: z.string().nullable().optional().catch(undefined),
});

/** One page of a models list: its models and, for Anthropic's paginated list, where the next starts. */
export interface ModelPage {
  models: DiscoveredModel[];
  /** The `after_id` of the next page; null when this was the last one. */
  nextAfter: string | null;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function toModel(format: ApiFormat, raw: unknown): DiscoveredModel | null {
  const item = itemSchema.safeParse(raw);
  if (!item.success) return null;
  // Ids are names clients send back: no control characters, no surrounding blanks.
  const id = item.data.id.trim();
  if (id === '' || hasControlCharacter(id)) return null;
  const isoMs = item.data.created_at === undefined ? NaN : Date.parse(item.data.created_at);
  const createdAt = !Number.isNaN(isoMs) ? isoMs : item.data.created !== undefined ? item.data.created * 1000 : null;
  const displayName = format === 'anthropic' ? (item.data.display_name?.slice(0, MAX_ID_LENGTH) ?? null) : null;
  return { id, displayName, createdAt };
}

/**
 * Reads one models page (Anthropic `{data, has_more, last_id}` or OpenAI `{object: 'list', data}`);
 * null when the body is no list at all. Items without a usable id are skipped, not fatal.
 */
export function parseModelPage(format: ApiFormat, json: unknown): ModelPage | null {
  if (format === 'gemini') return parseGeminiModelPage(json);
  const page = pageSchema.safeParse(json);
  if (!page.success) return null;
  const models = page.data.data.map((raw) => toModel(format, raw)).filter((m): m is DiscoveredModel => m !== null);
  const last = page.data.last_id ?? models.at(-1)?.id ?? null;
  return { models, nextAfter: page.data.has_more === true && last !== null ? last : null };
}

/** Pages joined in order, ids once each, bounded. */
export function mergePages(pages: readonly ModelPage[]): DiscoveredModel[] {
  const seen = new Set<string>();
  const out: DiscoveredModel[] = [];
  for (const page of pages) {
    for (const model of page.models) {
      if (seen.has(model.id) || out.length >= MAX_DISCOVERED_MODELS) continue;
      seen.add(model.id);
      out.push(model);
    }
  }
  return out;
}
