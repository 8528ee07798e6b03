import type { ConnectionKind } from '../../../src-shared/domain/connection';
import { providerIdentity, type ProviderIdentity } from '../../kernel/provider-identity';
import type { Classification, ClassifyContext, HeaderBag, UpstreamOutcome } from './classification';
import { classifyOutcome } from './classify';
import { readHeaderSignals } from '../../providers/signals/read-signals';

/** Fixtures shared by the classifier's unit tests: a fixed clock and the providers they talk about. */
export const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

export const provider = (kind: ConnectionKind, origin: string): ProviderIdentity => providerIdentity(kind, origin);

export const OPENAI = provider('openai', 'https://api.openai.com');
export const ANTHROPIC = provider('anthropic', 'https://api.anthropic.com');
export const CLAUDE_OAUTH = provider('claude-oauth', 'https://api.anthropic.com');
export const AGENTROUTER = provider('openai-compatible', 'https://agentrouter.org');
export const OPENROUTER = provider('openai-compatible', 'https://openrouter.ai');
export const OPENCODE = provider('openai-compatible', 'https://opencode.ai');
export const MINIMAX = provider('openai-compatible', 'https://api.minimax.io');
export const DEEPSEEK = provider('openai-compatible', 'https://api.deepseek.com');
export const NVIDIA = provider('openai-compatible', 'https://integrate.api.nvidia.com');
export const UNKNOWN_GATEWAY = provider('openai-compatible', 'https://llm.example.com');

/** An upstream error response; an object body is sent as JSON. */
export function respond(status: number, body: string | object = '', headers: HeaderBag = {}): UpstreamOutcome {
  const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
  // What the proxy hands over: the adapter's one reading of the headers (issue 22 step 3).
  return { kind: 'response', status, headers, bodyText, signals: readHeaderSignals(status, headers, NOW) };
}

/** OpenAI's error body shape. */
export const openaiError = (message: string, code: string | null = null, type = 'invalid_request_error') => ({
  error: { message, type, code },
});

/** Anthropic's error body shape. */
export const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

export function classify(
  outcome: UpstreamOutcome,
  on: ProviderIdentity = OPENAI,
  extra: Partial<ClassifyContext> = {},
): Classification {
  return classifyOutcome(outcome, { provider: on, model: 'test-model', operatorRules: {}, now: NOW, ...extra });
}
