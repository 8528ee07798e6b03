import type { ConnectionKind } from '../../src-shared/domain/connection';

/**
 * What a provider kind can do, as fields (issue 22 step 3): code outside `providers/` asks these
 * instead of comparing kind names, so a new kind (Gemini …) is one row here, found by the compiler.
 */
export interface ProviderCapabilities {
  /** Signs in with an OAuth login (access + refresh token) rather than an API key. */
  readonly usesOAuth: boolean;
  /** A new connection may come without a secret (a local or open OpenAI-compatible server). */
  readonly secretOptional: boolean;
  /** Reports its own usage windows (Claude's `anthropic-ratelimit-unified-*`): no host plan applies. */
  readonly reportsUnifiedWindows: boolean;
  /** Offers the low-priority lane at the usage wall (LOWP). */
  readonly hasLowPriorityLane: boolean;
  /** Speaks Anthropic's error dialect, whose account-limit words mean a subscription window. */
  readonly anthropicErrors: boolean;
  /** A gateway of any vendor: its host, not its kind, names the service behind it (and what its errors mean). */
  readonly genericGateway: boolean;
  /** A translated request may carry the thinking as `reasoning_content` (third-party chat APIs take it). */
  readonly takesReasoningContent: boolean;
}

const API_KEY: ProviderCapabilities = {
  usesOAuth: false,
  secretOptional: false,
  reportsUnifiedWindows: false,
  hasLowPriorityLane: false,
  anthropicErrors: false,
  genericGateway: false,
  takesReasoningContent: false,
};

const CAPABILITIES: Readonly<Record<ConnectionKind, ProviderCapabilities>> = {
  anthropic: { ...API_KEY, anthropicErrors: true },
  'claude-oauth': {
    usesOAuth: true,
    secretOptional: false,
    reportsUnifiedWindows: true,
    hasLowPriorityLane: true,
    anthropicErrors: true,
    genericGateway: false,
    takesReasoningContent: false,
  },
  openai: API_KEY,
  'openai-compatible': { ...API_KEY, secretOptional: true, genericGateway: true, takesReasoningContent: true },
  gemini: API_KEY,
};

export function capabilitiesOf(kind: ConnectionKind): ProviderCapabilities {
  return CAPABILITIES[kind];
}
