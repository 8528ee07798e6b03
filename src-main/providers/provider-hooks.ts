import type { ConnectionSecret } from '../../src-shared/domain/connection';
import type { RuntimeConnection } from '../kernel/catalog';

/** Response headers as undici hands them over. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** What a hook gives the next send: the credential to use and headers to add. */
export type PrepareResult =
  | { ok: true; secret: ConnectionSecret; headers: Record<string, string> | undefined }
  /** The connection's own credential cannot be used now; `needs_reauth` is already recorded. */
  | { ok: false; message: string; credentialReason: 'needs_reauth' | 'refresh_failed' };

/** After a response's headers: take it, or send the same request again on the same connection. */
export type HookDecision = { kind: 'accept'; wallResetAt: number | null } | { kind: 'retry'; delayMs: number };

/**
 * One attempt's provider behaviour (token refresh, the Claude lane, limit reset), called by the
 * attempt stage around each send; stateful for the attempt only.
 */
export interface AttemptHooks {
  prepare(): Promise<PrepareResult>;
  afterResponse(response: { status: number; headers: ResponseHeaders }): Promise<HookDecision>;
  /** `low-priority-accepted`, `limit-reset`, `slot-busy` … once a hook re-sent the request; else null. */
  readonly via: string | null;
}

/** Where provider behaviour plugs into the request path: one lookup per attempt. */
export interface ProviderHooks {
  /** Hooks for one attempt on `connection`, or null when its provider needs none (nothing allocated). */
  forAttempt(
    connection: RuntimeConnection,
    request: { startedAt: number; responseTimeoutMs: number },
  ): AttemptHooks | null;
}

/** For a proxy without provider hooks (tests, or a core without Claude connections). */
export const NO_PROVIDER_HOOKS: ProviderHooks = { forAttempt: () => null };
