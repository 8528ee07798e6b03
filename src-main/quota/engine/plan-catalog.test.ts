import { describe, expect, it } from 'vitest';
import { QUOTA_CATALOG_PROVIDERS } from '../../../src-shared/domain/quota';
import { catalogProviderOf, PLAN_CATALOG } from './plan-catalog';
import { resolvePlan } from './plan-resolve';

describe('plan catalog', () => {
  it('QPLAN-2: holds exactly the listed entries', () => {
    expect(Object.keys(PLAN_CATALOG).sort()).toEqual([...QUOTA_CATALOG_PROVIDERS].sort());
    expect(PLAN_CATALOG.codex).toEqual([
      { unit: 'percent', window: '5h', limit: 100 },
      { unit: 'percent', window: 'weekly', limit: 100 },
    ]);
    expect(PLAN_CATALOG.glm).toEqual([
      { unit: 'tokens', window: '5h', limit: 0 },
      { unit: 'tokens', window: 'weekly', limit: 0 },
    ]);
    expect(PLAN_CATALOG.minimax).toEqual(PLAN_CATALOG.glm);
    expect(PLAN_CATALOG.bailian).toEqual([
      { unit: 'percent', window: '5h', limit: 100 },
      { unit: 'percent', window: 'weekly', limit: 100 },
      { unit: 'percent', window: 'monthly', limit: 100 },
    ]);
    expect(PLAN_CATALOG.kimi).toEqual([{ unit: 'requests', window: 'hourly', limit: 1500 }]);
    expect(PLAN_CATALOG.alibaba).toEqual([{ unit: 'requests', window: 'monthly', limit: 90_000 }]);
  });

  it('QPLAN-2: finds the provider by the base URL host', () => {
    const oc = (baseUrl: string) => catalogProviderOf({ kind: 'openai-compatible', baseUrl });
    expect(oc('https://chatgpt.com/backend-api/codex')).toBe('codex');
    expect(oc('https://open.bigmodel.cn/api/paas/v4')).toBe('glm');
    expect(oc('https://api.z.ai/api/coding/paas/v4')).toBe('glm');
    expect(oc('https://api.minimax.io/v1')).toBe('minimax');
    expect(oc('https://api.minimaxi.com/v1')).toBe('minimax');
    expect(oc('https://coding.dashscope.aliyuncs.com/v1')).toBe('bailian');
    expect(oc('https://coding-intl.dashscope.aliyuncs.com/v1')).toBe('bailian');
    expect(oc('https://dashscope.aliyuncs.com/compatible-mode/v1')).toBe('alibaba');
    expect(oc('https://dashscope-intl.aliyuncs.com/compatible-mode/v1')).toBe('alibaba');
    expect(oc('https://cn-hongkong.dashscope.aliyuncs.com/compatible-mode/v1')).toBe('alibaba');
    expect(oc('https://api.moonshot.ai/v1')).toBe('kimi');
    expect(oc('https://API.MOONSHOT.CN/v1')).toBe('kimi');
    expect(oc('https://api.kimi.com/coding/v1')).toBe('kimi');
  });

  it('QPLAN-2: an Anthropic-format connection pointed at GLM is GLM; OpenAI, Anthropic and unknown hosts are null', () => {
    expect(catalogProviderOf({ kind: 'anthropic', baseUrl: 'https://api.z.ai/api/anthropic' })).toBe('glm');
    expect(catalogProviderOf({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' })).toBeNull();
    expect(catalogProviderOf({ kind: 'claude-oauth', baseUrl: 'https://api.anthropic.com' })).toBeNull();
    expect(catalogProviderOf({ kind: 'openai', baseUrl: 'https://api.openai.com/v1' })).toBeNull();
    expect(catalogProviderOf({ kind: 'openai', baseUrl: null })).toBeNull();
    expect(catalogProviderOf({ kind: 'openai-compatible', baseUrl: 'not a url' })).toBeNull();
    expect(
      catalogProviderOf({ kind: 'openai-compatible', baseUrl: 'https://evil-api.z.ai.example.com/v1' }),
    ).toBeNull();
    expect(catalogProviderOf({ kind: 'openai-compatible', baseUrl: 'https://chatgpt.com/other' })).toBeNull();
  });
});

describe('plan resolution', () => {
  const manual = [{ unit: 'requests' as const, window: 'daily' as const, limit: 50 }];

  it('QPLAN-1/3: a manual override wins and says so', () => {
    expect(resolvePlan(manual, 'codex')).toEqual({ source: 'manual', dimensions: manual });
  });

  it('QPLAN-1/3: no override → the catalog entry, as a copy', () => {
    const plan = resolvePlan(undefined, 'codex');
    expect(plan).toEqual({ source: 'catalog', dimensions: PLAN_CATALOG.codex });
    plan.dimensions[0] = { unit: 'usd', window: 'daily', limit: 1 };
    expect(PLAN_CATALOG.codex[0]?.unit).toBe('percent');
  });

  it('QPLAN-1: an override with no dimensions counts as none', () => {
    expect(resolvePlan([], 'kimi').source).toBe('catalog');
    expect(resolvePlan([], null)).toEqual({ source: 'none', dimensions: [] });
  });

  it('QPLAN-1/3: unknown provider and no override → empty plan, manual setup needed', () => {
    expect(resolvePlan(undefined, null)).toEqual({ source: 'none', dimensions: [] });
  });
});
