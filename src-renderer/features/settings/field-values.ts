import { msToUnitText, parseDuration, type DurationUnit } from './duration';
import type { FieldSpec } from './field-spec';

/** What an input holds while a person edits it: text for numbers and lists, a flag for switches. */
export type Draft = string | boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function getPath(root: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), root);
}

/** Writes `value` at `path`, creating the nested objects a partial patch needs. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop();
  if (last === undefined) return;
  let node = root;
  for (const key of keys) {
    const next = node[key];
    node = isRecord(next) ? next : (node[key] = {});
  }
  node[last] = value;
}

/** The unit a duration field is shown in: its own, else seconds. */
export const unitOf = (field: Pick<FieldSpec, 'unit'>): DurationUnit => field.unit ?? 's';

export function draftOf(field: FieldSpec, value: unknown): Draft {
  if (field.kind === 'bool') return value === true;
  if (field.kind === 'codes') return Array.isArray(value) ? value.join(', ') : '';
  if (field.kind === 'ms') return typeof value === 'number' ? msToUnitText(value, unitOf(field)) : '';
  return typeof value === 'number' ? String(value) : '';
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Turns a draft into the value sent to the core; only shape is checked here, ranges are the core's call. */
export function parseDraft(field: FieldSpec, draft: Draft): Parsed {
  if (typeof draft === 'boolean') return { ok: true, value: draft };
  const text = draft.trim();
  if (field.kind === 'codes') {
    const parts = text.split(/[\s,]+/).filter(Boolean);
    const codes = parts.map(Number);
    if (codes.some((c) => !Number.isInteger(c)))
      return { ok: false, message: 'List HTTP statuses as numbers, e.g. 429, 503' };
    return { ok: true, value: codes };
  }
  if (field.kind === 'ms') {
    const duration = parseDuration(text, unitOf(field));
    return duration.ok ? { ok: true, value: duration.ms } : duration;
  }
  if (text === '' && field.kind === 'int?') return { ok: true, value: null };
  if (text === '') return { ok: false, message: 'Enter a value' };
  const n = Number(text.replace(/[_\s]/g, ''));
  if (!Number.isFinite(n) || !Number.isInteger(n)) return { ok: false, message: 'Enter a whole number' };
  return { ok: true, value: n };
}

/** Milliseconds as people say them: "500 ms", "5 s", "2 min", "1 h 30 min", "7 d". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [size, unit] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}`);
    if (n > 0) rest -= n * size;
    if (parts.length === 2) break;
  }
  if (parts.length === 1 && rest > 0 && ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return parts.join(' ');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A number in the field's own unit, readable: durations and sizes get their human form. */
export function formatValue(field: Pick<FieldSpec, 'kind'>, n: number): string {
  if (field.kind === 'ms') return formatMs(n);
  if (field.kind === 'bytes') return formatBytes(n);
  return n.toLocaleString('en-US');
}

/** "Range 100 ms – 10 min" for the hint under a field. */
export function rangeText(field: FieldSpec): string | null {
  if (field.min === undefined || field.max === undefined) return null;
  return `${formatValue(field, field.min)} – ${formatValue(field, field.max)}`;
}
