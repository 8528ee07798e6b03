import type { ConnectionKind, ConnectionSecret } from '../../src-shared/domain/connection';
import type { ProviderAdapter, UpstreamOperation } from '../kernel/provider-adapter';
import { capabilitiesOf } from '../kernel/provider-capabilities';
import { readHeaderSignals } from './signals/read-signals';

function openaiPath(operation: UpstreamOperation): string | null {
  switch (operation) {
    case 'chat_completions':
      return '/chat/completions';
    case 'responses':
      return '/responses';
    case 'models':
      return '/models';
    case 'messages':
    case 'count_tokens':
    case 'generate_content':
    case 'stream_generate_content':
      return null;
  }
}

function openaiLike(kind: ConnectionKind): ProviderAdapter {
  return {
    kind,
    format: 'openai',
    capabilities: capabilitiesOf(kind),
    signals: (status, headers, _body, now) => readHeaderSignals(status, headers, now),
    // The base URL already carries the version path (…/v1, …/v4), so only the operation is appended.
    pathFor: openaiPath,
    authHeaders(secret: ConnectionSecret) {
      return { authorization: `Bearer ${secret.type === 'api-key' ? secret.apiKey : secret.accessToken}` };
    },
  };
}

export const openaiAdapter = openaiLike('openai');
export const openaiCompatibleAdapter = openaiLike('openai-compatible');
