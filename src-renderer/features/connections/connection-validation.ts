import type { AppError } from '../../../src-shared/contract/errors';
import { inputIssuesOf } from '../../api/error-issues';
import {
  apiFormatOf,
  connectionInputSchema,
  type ConnectionInput,
  type ConnectionKind,
} from '../../../src-shared/domain/connection';
import { CLAUDE_KEYS, hasSecretInput, parseModels, responsesApiOf, type ConnectionForm } from './connection-form';

/** Fields an error can point at; `form` catches what belongs to no single field. */
export const FIELD_KEYS = [
  'name',
  'kind',
  'baseUrl',
  'secret',
  'models',
  'modelAliases',
  'priority',
  'enabled',
  'maxConcurrent',
  'rateLimitOverrides',
  'disableCooling',
  'outboundProxyUrl',
  'acceptTranslated',
  'responsesApi',
  'providerSpecificData',
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number] | 'form';
export type FieldErrors = Partial<Record<FieldKey, string>>;

const fieldOf = (path: string): FieldKey => {
  const head = path.split('.')[0] ?? '';
  return (FIELD_KEYS as readonly string[]).includes(head) ? (head as FieldKey) : 'form';
};

const addError = (errors: FieldErrors, path: string, message: string): void => {
  const key = fieldOf(path);
  // Issues for a nested path (models.2) keep their index so the user can find the entry.
  const text = key === 'form' || path === key ? message : `${path.slice(key.length + 1)}: ${message}`;
  errors[key] = errors[key] ? `${errors[key]}; ${text}` : text;
};

const wholeNumber = (text: string): number | null | 'bad' => {
  if (text.trim() === '') return null;
  const value = Number(text.trim());
  return Number.isInteger(value) ? value : 'bad';
};

const secretType = (kind: ConnectionKind): 'oauth' | 'api-key' => (kind === 'claude-oauth' ? 'oauth' : 'api-key');

/**
 * Turns the editor's state into an upsert input, or says per field what is wrong. Runs the
 * contract's own schema, plus the core's rules a schema cannot see (a new connection needs a secret).
 */
export function buildConnectionInput(
  form: ConnectionForm,
  original: { kind: ConnectionKind } | null,
): { ok: true; input: ConnectionInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const priority = wholeNumber(form.priority);
  if (priority === 'bad' || priority === null) errors.priority = 'must be a whole number from 0 to 1000';
  const maxConcurrent = wholeNumber(form.maxConcurrent);
  if (maxConcurrent === 'bad') errors.maxConcurrent = 'must be a whole number, or empty for no limit';
  const overrides = {
    maxWaitMs: wholeNumber(form.queueMaxWaitMs),
    executionMaxWaitMs: wholeNumber(form.queueExecutionMaxWaitMs),
    maxQueueDepth: wholeNumber(form.queueMaxDepth),
  };
  const rateLimitOverrides: Record<string, number> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (value === 'bad') errors.rateLimitOverrides = `${key}: must be a whole number, or empty for the settings`;
    else if (value !== null) rateLimitOverrides[key] = value;
  }

  const modelAliases: Record<string, string> = {};
  for (const { alias, model } of form.aliases) {
    if (alias.trim() === '' && model.trim() === '') continue;
    if (alias.trim() === '' || model.trim() === '') errors.modelAliases = 'each alias needs both a name and a model';
    else if (alias.trim() in modelAliases) errors.modelAliases = `alias "${alias.trim()}" is listed twice`;
    else modelAliases[alias.trim()] = model.trim();
  }

  let secret: ConnectionInput['secret'];
  if (hasSecretInput(form)) {
    if (form.kind !== 'claude-oauth') secret = { type: 'api-key', apiKey: form.apiKey.trim() };
    else if (form.accessToken.trim() === '')
      errors.secret = 'enter the access token too; a refresh token alone cannot be stored';
    else {
      const expiresAt = form.expiresAt.trim() === '' ? undefined : new Date(form.expiresAt).getTime();
      if (expiresAt !== undefined && Number.isNaN(expiresAt)) errors.secret = 'expiry must be a date and time';
      secret = {
        type: 'oauth',
        accessToken: form.accessToken.trim(),
        ...(form.refreshToken.trim() ? { refreshToken: form.refreshToken.trim() } : {}),
        ...(expiresAt !== undefined && !Number.isNaN(expiresAt) ? { expiresAt } : {}),
      };
    }
  } else if (!original && form.kind !== 'openai-compatible') {
    errors.secret = form.kind === 'claude-oauth' ? 'an access token is required' : 'an API key is required';
  } else if (original && secretType(original.kind) !== secretType(form.kind)) {
    errors.secret = 'changing to this kind needs a new credential';
  }

  const providerSpecificData: Record<string, unknown> = { ...form.otherProviderData };
  if (form.kind === 'claude-oauth') {
    providerSpecificData.lowPriorityMode = form.lowPriorityMode;
    providerSpecificData.autoLimitReset = form.autoLimitReset;
  } else for (const key of CLAUDE_KEYS) delete providerSpecificData[key];

  const input: ConnectionInput = {
    name: form.name.trim(),
    kind: form.kind,
    baseUrl: form.baseUrl.trim() === '' ? null : form.baseUrl.trim(),
    ...(secret ? { secret } : {}),
    models: parseModels(form.models),
    modelAliases,
    priority: typeof priority === 'number' ? priority : 1,
    enabled: form.enabled,
    maxConcurrent: typeof maxConcurrent === 'number' ? maxConcurrent : null,
    disableCooling: form.disableCooling,
    providerSpecificData,
    ...(Object.keys(rateLimitOverrides).length > 0 ? { rateLimitOverrides } : {}),
    outboundProxyUrl: form.outboundProxyUrl.trim() === '' ? null : form.outboundProxyUrl.trim(),
    acceptTranslated: form.acceptTranslated,
    // Only OpenAI-format kinds show the choice; an Anthropic connection never serves /responses itself.
    responsesApi: apiFormatOf(form.kind) === 'openai' ? responsesApiOf(form.responsesApi) : null,
  };
  const parsed = connectionInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      if (!errors[fieldOf(path)]) addError(errors, path, issue.message);
    }
  }
  return Object.keys(errors).length === 0 ? { ok: true, input } : { ok: false, errors };
}

/** Places the core's refusal next to the fields it names; what names no field goes to `form`. */
export function errorsFromAppError(error: AppError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of inputIssuesOf(error)) addError(errors, issue.path, issue.message);
  return Object.keys(errors).length > 0 ? errors : { form: error.message };
}
