import { KNOWN_PROVIDER_HOSTS, type KnownProviderHost } from './known-providers';
import {
  BUILT_IN_PROVIDER_RULES,
  FULL_TEXT_RULE_PROVIDERS,
  HONORS_RULE_LOCK_SCOPE_PROVIDERS,
} from './provider-rule-catalog';
import type { ProviderRuleRegistry } from './provider-rules';
import { STATUS_RESTATEMENT_RULES, type StatusRestatementRegistry } from './restatement-rules';

/**
 * Everything provider-specific the classifier consults. RESTATE-19: supporting a new gateway means
 * adding entries here (host, restatement, rules, allowlists) — never changing the classifier.
 */
export interface ErrorCatalog {
  knownHosts: readonly KnownProviderHost[];
  restatementRules: StatusRestatementRegistry;
  providerRules: ProviderRuleRegistry;
  fullTextProviders: ReadonlySet<string>;
  honorsRuleScopeProviders: ReadonlySet<string>;
}

export const DEFAULT_ERROR_CATALOG: ErrorCatalog = {
  knownHosts: KNOWN_PROVIDER_HOSTS,
  restatementRules: STATUS_RESTATEMENT_RULES,
  providerRules: BUILT_IN_PROVIDER_RULES,
  fullTextProviders: FULL_TEXT_RULE_PROVIDERS,
  honorsRuleScopeProviders: HONORS_RULE_LOCK_SCOPE_PROVIDERS,
};
