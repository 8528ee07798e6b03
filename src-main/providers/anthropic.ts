import type { ConnectionSecret } from '../../src-shared/domain/connection';
import type { ProviderAdapter, UpstreamOperation } from '../kernel/provider-adapter';
import { capabilitiesOf } from '../kernel/provider-capabilities';
import { readHeaderSignals } from './signals/read-signals';

function anthropicPath(operation: UpstreamOperation): string | null {
  switch (operation) {
    case 'messages':
      return '/v1/messages';
    case 'count_tokens':
      return '/v1/messages/count_tokens';
    case 'models':
      return '/v1/models';
    case 'chat_completions':
    case 'responses':
    case 'generate_content':
    case 'stream_generate_content':
      return null;
  }
}

/** Anthropic API key connections: `x-api-key` auth, the base URL is the origin (plus any prefix). */
export const anthropicAdapter: ProviderAdapter = {
  kind: 'anthropic',
  format: 'anthropic',
  capabilities: capabilitiesOf('anthropic'),
  pathFor: anthropicPath,
  signals: (status, headers, _body, now) => readHeaderSignals(status, headers, now),
  authHeaders(secret: ConnectionSecret): Record<string, string> {
    return secret.type === 'api-key'
      ? { 'x-api-key': secret.apiKey }
      : { authorization: `Bearer ${secret.accessToken}` };
  },
};

const OAUTH_BETA = 'oauth-2025-04-20';

/** Claude subscription connections: Bearer token plus the OAuth beta flag added to the client's betas. */
export const claudeOauthAdapter: ProviderAdapter = {
  kind: 'claude-oauth',
  format: 'anthropic',
  capabilities: capabilitiesOf('claude-oauth'),
  pathFor: anthropicPath,
  signals: (status, headers, _body, now) => readHeaderSignals(status, headers, now),
  authHeaders(secret: ConnectionSecret) {
    return { authorization: `Bearer ${secret.type === 'oauth' ? secret.accessToken : secret.apiKey}` };
  },
  decorateHeaders(headers) {
    const betas = (headers['anthropic-beta'] ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b.length > 0);
    if (!betas.includes(OAUTH_BETA)) betas.push(OAUTH_BETA);
    headers['anthropic-beta'] = betas.join(',');
  },
};
