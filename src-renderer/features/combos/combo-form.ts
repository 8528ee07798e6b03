import type { AppError } from '../../../src-shared/contract/errors';
import {
  comboInputSchema,
  type ComboInput,
  type ComboStrategy,
  type ComboView,
} from '../../../src-shared/domain/combo';
import { inputIssuesOf } from '../../api/error-issues';

/** One row of the targets list as typed: a connection name and a model id ('' = the client's model). */
export interface TargetDraft {
  /** Stable across reorders, so React keeps each row's focus and input. */
  key: number;
  connection: string;
  model: string;
  /** `weighted` only: the share of new picks as typed ('' = the default, 1). */
  weight: string;
}

export interface ComboForm {
  name: string;
  targets: TargetDraft[];
  strategy: ComboStrategy;
}

/** Messages per field; `targets.<i>` holds a row's own message, `form` what names no field. */
export type ComboErrors = Partial<Record<'name' | 'targets' | 'form' | `targets.${number}`, string>>;

let nextKey = 1;
export const newTarget = (connection: string, model = '', weight = ''): TargetDraft => ({
  key: nextKey++,
  connection,
  model,
  weight,
});

export function comboFormFrom(view: ComboView | null): ComboForm {
  return {
    name: view?.name ?? '',
    targets: view
      ? view.targets.map((t) => newTarget(t.connection, t.model ?? '', t.weight === undefined ? '' : String(t.weight)))
      : [],
    strategy: view?.strategy ?? 'priority',
  };
}

const keyOf = (path: string): keyof ComboErrors => {
  const [head, index] = path.split('.');
  if (head === 'name') return 'name';
  if (head !== 'targets') return 'form';
  return index !== undefined && /^\d+$/.test(index) ? `targets.${Number(index)}` : 'targets';
};

const addIssue = (errors: ComboErrors, path: string, message: string): void => {
  const key = keyOf(path);
  errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
};

/** The upsert input for the form, or per-field messages from the contract's own schema. */
export function buildComboInput(form: ComboForm): { ok: true; input: ComboInput } | { ok: false; errors: ComboErrors } {
  const input: ComboInput = {
    name: form.name.trim(),
    targets: form.targets.map((t) => {
      const target = { connection: t.connection, model: t.model.trim() === '' ? null : t.model.trim() };
      // Weights are sent only for `weighted`, where they mean something; the schema checks 1..100.
      const weight = t.weight.trim();
      return form.strategy === 'weighted' && weight !== '' ? { ...target, weight: Number(weight) } : target;
    }),
    strategy: form.strategy,
  };
  const errors: ComboErrors = {};
  form.targets.forEach((t, i) => {
    if (t.connection === '') errors[`targets.${i}`] = 'pick a connection';
  });
  const parsed = comboInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // The first reason per field is the one to fix first ("is required" before the pattern).
      const key = keyOf(issue.path.map(String).join('.'));
      if (!errors[key]) errors[key] = issue.message;
    }
  }
  return Object.keys(errors).length === 0 ? { ok: true, input } : { ok: false, errors };
}

/** Places the core's refusal next to the fields it names. */
export function comboErrorsFrom(error: AppError): ComboErrors {
  const errors: ComboErrors = {};
  for (const issue of inputIssuesOf(error)) addIssue(errors, issue.path, issue.message);
  return Object.keys(errors).length > 0 ? errors : { form: error.message };
}
