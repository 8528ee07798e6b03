import { toHeaderMap, type HeaderSource } from './header-source';
import { unifiedFromMap, type UnifiedHeaders } from './unified-headers';
import { usageFromMap, type UsageWindows } from './usage-windows';

/**
 * Claude's `anthropic-ratelimit-unified-*` headers, read once per response (issue 22 step 3): the
 * lane's fields and the usage windows the UI shows. The windows' fill and reset that the quota
 * engine and the strategies use come from the adapter's `signals`, read from the same headers.
 */
export interface ClaudeUnified {
  lane: UnifiedHeaders;
  usage: UsageWindows | null;
}

export function readClaudeUnified(source: HeaderSource): ClaudeUnified {
  const map = toHeaderMap(source);
  return { lane: unifiedFromMap(map), usage: usageFromMap(map) };
}
