import type { ConnectionKind } from '../../../src-shared/domain/connection';
import type { ProviderProfile } from '../../kernel/provider-identity';
import type { FailureReason, FailureScope, RetryHint, RuleScope, TerminalCandidate } from './classification';
import type { HeaderMap } from './headers';
import type { UpstreamService } from './known-providers';
import type { ProviderErrorRule, RuleMatchBody } from './provider-rules';
import type { StructuredError } from './upstream-error';

/** What one decision step concludes; the classifier adds the derived fields. */
export interface Verdict {
  reason: FailureReason;
  scope: FailureScope;
  terminal?: TerminalCandidate | null;
  configuredCooldownMs?: number;
  ruleId: string;
  ruleScope?: RuleScope;
}

/** Everything the decision steps may read about one upstream error response, computed once. */
export interface ResponseFacts {
  /** After restatement. */
  status: number;
  /** Lower-cased body and decoded message: where signal substrings are searched. */
  text: string;
  /** Lower-cased human message only: the 400 pattern sets read this, not JSON keys. */
  message: string;
  structured: StructuredError | null;
  headers: HeaderMap;
  kind: ConnectionKind;
  service: UpstreamService;
  profile: ProviderProfile;
  retryHint: RetryHint | null;
  banSignals: readonly string[];
  /** Operator rules first, then the built-in ones of this service. */
  rules: readonly ProviderErrorRule[];
  ruleBody: RuleMatchBody;
  honorsRuleScope: boolean;
  now: number;
}

/** One step of the decision tree: a verdict, or null to let the next step decide. */
export type DecisionStep = (facts: ResponseFacts) => Verdict | null;
