import type { ConnectionKind } from '../../../src-shared/domain/connection';
import type { QuotaCatalogProvider, QuotaDimension } from '../../../src-shared/domain/quota';
import { capabilitiesOf } from '../../kernel/provider-capabilities';
import { hostMatches, hostOfUrl, UPSTREAM_HOSTS } from '../../kernel/upstream-hosts';

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
 * Which catalog entry a connection's account falls under, by the host of its base URL (exact host,
 * or a subdomain of it, e.g. `cn-hongkong.dashscope.aliyuncs.com`), from the one host catalog in
 * `kernel/upstream-hosts`. Codex is `chatgpt.com` under `/backend-api/codex`. Anthropic's and
 * OpenAI's own hosts, unknown hosts and Claude subscriptions: null.
 */
export function catalogProviderOf(c: { kind: ConnectionKind; baseUrl: string | null }): QuotaCatalogProvider | null {
  // Matched on the host whatever the kind: GLM, MiniMax and DashScope also serve an Anthropic-format
  // endpoint, so an `anthropic` connection may point at them; api.anthropic.com is in no entry.
  // A subscription that reports its own windows is judged by them, never by a host's published plan.
  if (c.baseUrl === null || capabilitiesOf(c.kind).reportsUnifiedWindows) return null;
  const host = hostOfUrl(c.baseUrl);
  if (host === null) return null;
  for (const row of UPSTREAM_HOSTS) {
    if (row.plan === undefined || !hostMatches(host, row.suffix)) continue;
    if (row.planPath !== undefined && !new URL(c.baseUrl).pathname.startsWith(row.planPath)) return null;
    return row.plan;
  }
  return null;
}
