import type { QuotaCatalogProvider } from '../../src-shared/domain/quota';

/**
 * The one catalog of upstream hosts (issue 22 step 3). A row names what Leeway knows about a host:
 * the error dialect its classifier rules are filed under (`service`) and/or the built-in quota plan
 * its accounts fall under (`plan`). `suffix` matches the host or any subdomain of it; rows are read
 * in order, so a more specific host (DashScope's coding hosts) comes before its parent.
 */
export interface UpstreamHost {
  suffix: string;
  service?: string;
  plan?: QuotaCatalogProvider;
  /** The plan applies only under this base-URL path (Codex lives under chatgpt.com/backend-api/codex). */
  planPath?: string;
}

export const UPSTREAM_HOSTS: readonly UpstreamHost[] = [
  { suffix: 'anthropic.com', service: 'anthropic' },
  { suffix: 'openai.com', service: 'openai' },
  { suffix: 'agentrouter.org', service: 'agentrouter' },
  { suffix: 'opencode.ai', service: 'opencode' },
  { suffix: 'minimax.io', service: 'minimax' },
  { suffix: 'minimaxi.com', service: 'minimax' },
  { suffix: 'minimax.chat', service: 'minimax' },
  { suffix: 'openrouter.ai', service: 'openrouter' },
  { suffix: 'api.cloudflare.com', service: 'cloudflare-ai' },
  { suffix: 'deepseek.com', service: 'deepseek' },
  { suffix: 'moonshot.ai', service: 'moonshot' },
  { suffix: 'moonshot.cn', service: 'moonshot' },
  { suffix: 'generativelanguage.googleapis.com', service: 'gemini' },
  { suffix: 'z.ai', service: 'glm' },
  { suffix: 'bigmodel.cn', service: 'glm' },
  { suffix: 'groq.com', service: 'groq' },
  { suffix: 'x.ai', service: 'xai' },
  { suffix: 'mistral.ai', service: 'mistral' },
  { suffix: 'together.xyz', service: 'together' },
  { suffix: 'api.nvidia.com', service: 'nvidia' },
  { suffix: 'fireworks.ai', service: 'fireworks' },
  // Plans (QPLAN-2). Alibaba: the Coding Plan (`bailian`) answers on its own hosts, every other
  // DashScope host is pay-as-you-go. Kimi's coding endpoint maps to `kimi` too (its plan is not modelled).
  { suffix: 'chatgpt.com', plan: 'codex', planPath: '/backend-api/codex' },
  { suffix: 'open.bigmodel.cn', plan: 'glm' },
  { suffix: 'api.z.ai', plan: 'glm' },
  { suffix: 'api.minimax.io', plan: 'minimax' },
  { suffix: 'api.minimaxi.com', plan: 'minimax' },
  { suffix: 'api.minimaxi.chat', plan: 'minimax' },
  { suffix: 'api.minimax.chat', plan: 'minimax' },
  { suffix: 'coding.dashscope.aliyuncs.com', plan: 'bailian' },
  { suffix: 'coding-intl.dashscope.aliyuncs.com', plan: 'bailian' },
  { suffix: 'dashscope.aliyuncs.com', plan: 'alibaba' },
  { suffix: 'dashscope-intl.aliyuncs.com', plan: 'alibaba' },
  { suffix: 'dashscope-us.aliyuncs.com', plan: 'alibaba' },
  { suffix: 'api.moonshot.ai', plan: 'kimi' },
  { suffix: 'api.moonshot.cn', plan: 'kimi' },
  { suffix: 'api.kimi.com', plan: 'kimi' },
];

/** A URL's host, lower-cased; null when it does not parse. */
export function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether `host` is `suffix` or a subdomain of it. */
export function hostMatches(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}
