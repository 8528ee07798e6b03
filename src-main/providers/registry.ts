import type { ConnectionKind } from '../../src-shared/domain/connection';
import type { ProviderAdapter } from '../kernel/provider-adapter';
import { anthropicAdapter, claudeOauthAdapter } from './anthropic';
import { geminiAdapter } from './gemini/gemini-adapter';
import { openaiAdapter, openaiCompatibleAdapter } from './openai';

const ADAPTERS: Readonly<Record<ConnectionKind, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  'claude-oauth': claudeOauthAdapter,
  openai: openaiAdapter,
  'openai-compatible': openaiCompatibleAdapter,
  gemini: geminiAdapter,
};

export function adapterFor(kind: ConnectionKind): ProviderAdapter {
  return ADAPTERS[kind];
}
