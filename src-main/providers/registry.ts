import type { ConnectionKind } from '../../src-shared/domain/connection';
import type { ProviderAdapter } from '../kernel/provider-adapter';
import { anthropicAdapter, claudeOauthAdapter } from './anthropic';
import { openaiAdapter, openaiCompatibleAdapter } from './openai';

const ADAPTERS: Readonly<Record<ConnectionKind, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  'claude-oauth': claudeOauthAdapter,
  openai: openaiAdapter,
  'openai-compatible': openaiCompatibleAdapter,
};

export function adapterFor(kind: ConnectionKind): ProviderAdapter {
  return ADAPTERS[kind];
}
