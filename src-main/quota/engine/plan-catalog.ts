import type { ConnectionKind } from '../../../src-shared/domain/connection';
import type { QuotaCatalogProvider, QuotaDimension } from '../../../src-shared/domain/quota';

/**
 * The built-in plan catalog (QPLAN-2), kept as pure data: what an account of each known provider may
 * spend per window. A limit of 0 means the provider publishes no number; enforcement skips it.
 * `openai` and `anthropic` have no entry: their limits depend on the account and need a manual plan.
 */
export const PLAN_CATALOG: Readonly<Record<QuotaCatalogProvider, readonly QuotaDimension[]>> = {
  codex: [
    { unit: 'percent', window: '5h', limit: 100 },
    { unit: 'percent', window: 'weekly', limit: 100 },
  ],
  glm: [
    { unit: 'tokens', window: '5h', limit: 0 },
    { unit: 'tokens', window: 'weekly', limit: 0 },
  ],
  minimax: [
    { unit: 'tokens', window: '5h', limit: 0 },
    { unit: 'tokens', window: 'weekly', limit: 0 },
  ],
  bailian: [
    { unit: 'percent', window: '5h', limit: 100 },
    { unit: 'percent', window: 'weekly', limit: 100 },
    { unit: 'percent', window: 'monthly', limit: 100 },
  ],
  kimi: [{ unit: 'requests', window: 'hourly', limit: 1500 }],
  alibaba: [{ unit: 'requests', window: 'monthly', limit: 90_000 }],
};

/**
 * Host → provider. Alibaba has two products on DashScope: the Coding Plan (a subscription with
 * percent windows, `bailian`) answers on its own hosts `coding.dashscope.aliyuncs.com` and
 * `coding-intl.dashscope.aliyuncs.com`; every other DashScope host is pay-as-you-go (`alibaba`).
 * Kimi: `api.moonshot.ai`/`.cn` are the metered Moonshot API (requests/hour); `api.kimi.com` is
 * Kimi's coding endpoint, whose plan the catalog does not model, so it maps to `kimi` as well.
 */
const HOSTS: ReadonlyArray<readonly [string, QuotaCatalogProvider]> = [
  ['chatgpt.com', 'codex'],
  ['open.bigmodel.cn', 'glm'],
  ['api.z.ai', 'glm'],
  ['api.minimax.io', 'minimax'],
  ['api.minimaxi.com', 'minimax'],
  ['api.minimaxi.chat', 'minimax'],
  ['api.minimax.chat', 'minimax'],
  ['coding.dashscope.aliyuncs.com', 'bailian'],
  ['coding-intl.dashscope.aliyuncs.com', 'bailian'],
  ['dashscope.aliyuncs.com', 'alibaba'],
  ['dashscope-intl.aliyuncs.com', 'alibaba'],
  ['dashscope-us.aliyuncs.com', 'alibaba'],
  ['api.moonshot.ai', 'kimi'],
  ['api.moonshot.cn', 'kimi'],
  ['api.kimi.com', 'kimi'],
];

function hostOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Which catalog entry a connection's account falls under, by the host of its base URL (exact host,
 * or a subdomain of it, e.g. `cn-hongkong.dashscope.aliyuncs.com`). Codex is `chatgpt.com` under
 * `/backend-api/codex`. Anthropic's and OpenAI's own hosts, unknown hosts and Claude OAuth: null.
 */
export function catalogProviderOf(c: { kind: ConnectionKind; baseUrl: string | null }): QuotaCatalogProvider | null {
  // Matched on the host whatever the kind: GLM, MiniMax and DashScope also serve an Anthropic-format
  // endpoint, so an `anthropic` connection may point at them; api.anthropic.com is in no entry.
  if (c.baseUrl === null || c.kind === 'claude-oauth') return null;
  const host = hostOf(c.baseUrl);
  if (host === null) return null;
  for (const [known, provider] of HOSTS) {
    if (host === known || host.endsWith(`.${known}`)) {
      if (provider === 'codex' && !new URL(c.baseUrl).pathname.startsWith('/backend-api/codex')) return null;
      return provider;
    }
  }
  return null;
}
