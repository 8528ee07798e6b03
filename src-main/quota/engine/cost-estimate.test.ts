import { describe, expect, it } from 'vitest';
import { actualCost, estimateCost, OUTPUT_ESTIMATE_CAP, OUTPUT_ESTIMATE_DEFAULT } from './cost-estimate';
import { priceOf } from './price-table';

describe('cost estimate', () => {
  it('QPIPE-1: one request; input tokens ≈ body bytes / 4; output from max_tokens, capped', () => {
    expect(estimateCost({ bodyBytes: 4_000, maxTokens: 500, model: null })).toEqual({
      requests: 1,
      tokens: 1_500,
      usd: 0,
    });
    expect(estimateCost({ bodyBytes: 4_001, maxTokens: 32_000, model: null }).tokens).toBe(1_001 + OUTPUT_ESTIMATE_CAP);
    expect(estimateCost({ bodyBytes: 0, maxTokens: null, model: null }).tokens).toBe(OUTPUT_ESTIMATE_DEFAULT);
  });

  it('QPIPE-1: USD at the model family\u2019s list price (Sonnet: $3 in, $15 out per million)', () => {
    const c = estimateCost({ bodyBytes: 4_000_000, maxTokens: 1_000, model: 'claude-sonnet-4-5-20250929' });
    expect(c.usd).toBeCloseTo(3 + 0.015, 9);
  });

  it('QPIPE-1: an unknown model costs 0 USD, so the usd dimension never blocks on an estimate', () => {
    expect(estimateCost({ bodyBytes: 1e6, maxTokens: 1e5, model: 'my-local-llama' }).usd).toBe(0);
  });

  it('QPIPE-4: the actual cost counts every token and prices cache reads and writes at their own rates', () => {
    const c = actualCost(
      { inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 1e6, cacheWriteTokens: 1e6 },
      'claude-opus-4-5',
    );
    expect(c.requests).toBe(1);
    expect(c.tokens).toBe(4e6);
    expect(c.usd).toBeCloseTo(5 + 25 + 0.5 + 6.25, 9);
  });

  it('QPIPE-4: a family without a cache-write price bills writes as input; negatives count as 0', () => {
    const c = actualCost({ inputTokens: -5, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 1e6 }, 'gpt-4.1');
    expect(c.tokens).toBe(1e6);
    expect(c.usd).toBeCloseTo(2, 9);
    expect(actualCost({ inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, null).usd).toBe(
      0,
    );
  });
});

describe('price table', () => {
  it('QPIPE-4: model ids fall into their families, specific before general', () => {
    const family = (m: string) => priceOf(m)?.family ?? null;
    expect(family('claude-opus-4-1-20250805')).toBe('claude-opus-legacy');
    expect(family('claude-opus-4-20250514')).toBe('claude-opus-legacy');
    expect(family('claude-opus-4-5')).toBe('claude-opus');
    expect(family('anthropic/claude-sonnet-4-5')).toBe('claude-sonnet');
    expect(family('claude-haiku-4-5')).toBe('claude-haiku');
    expect(family('claude-3-5-haiku-20241022')).toBe('claude-haiku-3.5');
    expect(family('gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(family('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(family('gpt-4.1-mini')).toBe('gpt-4.1-mini');
    expect(family('gpt-5-mini')).toBe('gpt-5-mini');
    expect(family('gpt-5-codex')).toBe('gpt-5');
    expect(family('GLM-4.6')).toBe('glm');
    expect(family('kimi-k2-0905-preview')).toBe('kimi');
    expect(family('deepseek-chat')).toBe('deepseek');
    expect(family('deepseek-reasoner')).toBe('deepseek-reasoner');
    expect(family('MiniMax-M2')).toBe('minimax');
    expect(family('')).toBeNull();
    expect(family('mistral-large')).toBeNull();
  });
});
