import type { ConnectionInput, ConnectionKind, ConnectionView } from '../../../src-shared/domain/connection';

/** Issue 12: how an OpenAI-format connection takes `POST /responses`; `auto` leaves it to the kind. */
export type ResponsesApiChoice = 'auto' | 'native' | 'translate';

/** The editor's state: every field as the user types it; secrets always start empty (write-only). */
export interface ConnectionForm {
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  apiKey: string;
  accessToken: string;
  refreshToken: string;
  /** `datetime-local` value, local time. */
  expiresAt: string;
  /** Comma- or line-separated model ids. */
  models: string;
  aliases: { alias: string; model: string }[];
  priority: string;
  enabled: boolean;
  maxConcurrent: string;
  /** QUEUE-7: this connection's queue budgets over the settings; empty = use the settings. */
  queueMaxWaitMs: string;
  queueExecutionMaxWaitMs: string;
  queueMaxDepth: string;
  disableCooling: boolean;
  /** EGRESS: as shown (credentials masked); empty sends directly. */
  outboundProxyUrl: string;
  /** The egress IP the probe last recorded; display only. */
  egressIp: string | null;
  /** Issue 12: requests in the other wire format may be translated onto this connection. */
  acceptTranslated: boolean;
  responsesApi: ResponsesApiChoice;
  lowPriorityMode: boolean;
  autoLimitReset: boolean;
  /** providerSpecificData keys the editor does not show (e.g. organizationUUID), kept as they are. */
  otherProviderData: Record<string, unknown>;
}

/** The Claude toggles live in providerSpecificData under these keys (LOWP-1, RESET-1). */
export const CLAUDE_KEYS = ['lowPriorityMode', 'autoLimitReset'] as const;

export function emptyForm(): ConnectionForm {
  return {
    name: '',
    kind: 'anthropic',
    baseUrl: '',
    apiKey: '',
    accessToken: '',
    refreshToken: '',
    expiresAt: '',
    models: '',
    aliases: [],
    priority: '1',
    enabled: true,
    maxConcurrent: '',
    queueMaxWaitMs: '',
    queueExecutionMaxWaitMs: '',
    queueMaxDepth: '',
    disableCooling: false,
    outboundProxyUrl: '',
    egressIp: null,
    acceptTranslated: true,
    responsesApi: 'auto',
    lowPriorityMode: false,
    autoLimitReset: false,
    otherProviderData: {},
  };
}

/** Fills the editor from a stored connection; the secret fields stay empty on purpose. */
export function formFromView(view: ConnectionView): ConnectionForm {
  const { lowPriorityMode, autoLimitReset, ...other } = view.providerSpecificData;
  return {
    ...emptyForm(),
    name: view.name,
    kind: view.kind,
    baseUrl: view.baseUrl ?? '',
    models: view.models.join(', '),
    aliases: Object.entries(view.modelAliases).map(([alias, model]) => ({ alias, model })),
    priority: String(view.priority),
    enabled: view.enabled,
    maxConcurrent: view.maxConcurrent === null ? '' : String(view.maxConcurrent),
    queueMaxWaitMs: textOf(view.rateLimitOverrides?.maxWaitMs),
    queueExecutionMaxWaitMs: textOf(view.rateLimitOverrides?.executionMaxWaitMs),
    queueMaxDepth: textOf(view.rateLimitOverrides?.maxQueueDepth),
    disableCooling: view.disableCooling,
    outboundProxyUrl: view.outboundProxyUrl ?? '',
    egressIp: view.egressIp ?? null,
    acceptTranslated: view.acceptTranslated !== false,
    responsesApi: responsesChoiceOf(view.responsesApi),
    lowPriorityMode: lowPriorityMode === true,
    autoLimitReset: autoLimitReset === true,
    otherProviderData: other,
  };
}

/** A stored connection as an upsert input without a secret, so the core keeps the stored one. */
export function inputFromView(view: ConnectionView): ConnectionInput {
  return {
    name: view.name,
    kind: view.kind,
    baseUrl: view.baseUrl,
    models: view.models,
    modelAliases: view.modelAliases,
    priority: view.priority,
    enabled: view.enabled,
    maxConcurrent: view.maxConcurrent,
    disableCooling: view.disableCooling,
    providerSpecificData: view.providerSpecificData,
    // Kept as stored: a toggle from the list must not drop the connection's queue overrides.
    ...(view.rateLimitOverrides ? { rateLimitOverrides: view.rateLimitOverrides } : {}),
    // The masked form the view holds: the core reads it as "keep the stored proxy".
    ...(view.outboundProxyUrl ? { outboundProxyUrl: view.outboundProxyUrl } : {}),
    // Absent means the default on the core's side too, so only a set switch needs carrying over.
    ...(view.acceptTranslated === undefined ? {} : { acceptTranslated: view.acceptTranslated }),
    ...(view.responsesApi === undefined ? {} : { responsesApi: view.responsesApi }),
  };
}

/** The stored Responses switch as the editor's choice, and back (null: by kind). */
export function responsesChoiceOf(value: boolean | null | undefined): ResponsesApiChoice {
  if (value === true) return 'native';
  if (value === false) return 'translate';
  return 'auto';
}

export function responsesApiOf(choice: ResponsesApiChoice): boolean | null {
  return choice === 'auto' ? null : choice === 'native';
}

/** An override field's text: empty when unset or 0 (both mean "use the settings"). */
const textOf = (value: number | undefined): string => (value === undefined || value === 0 ? '' : String(value));

/** Splits a comma/line list of model ids, trimmed and without duplicates. */
export function parseModels(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((m) => m.trim())
        .filter((m) => m !== ''),
    ),
  ];
}

/** True when the user typed any part of a credential; an untouched secret is never sent. */
export function hasSecretInput(form: ConnectionForm): boolean {
  return form.kind === 'claude-oauth'
    ? [form.accessToken, form.refreshToken, form.expiresAt].some((v) => v.trim() !== '')
    : form.apiKey.trim() !== '';
}
