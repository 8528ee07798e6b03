import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { Settings } from '../../src-shared/domain/settings';
import type { UpstreamPools } from '../providers/upstream-pools';
import type { Catalog } from '../routing/catalog';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import type { ConnectionSlots } from './connection-slots';
import type { ResiliencePort } from './resilience-port';

/** What the proxy needs from the core; read through functions so a change is seen at once. */
export interface ProxyContext {
  catalog(): Catalog;
  settings(): Settings;
  verifyKey(plainKey: string): LocalKeyView | null;
  pools: UpstreamPools;
  resilience: ResiliencePort;
  /** maxConcurrent semaphores, one per connection. */
  slots: ConnectionSlots;
  /** Claude subscription hooks (tokens, usage windows, lane, reset); null in tests that do not need them. */
  claude: ClaudeRuntime | null;
  /** Operator-facing warnings (never secrets). */
  log(line: string): void;
  now(): number;
  record(entry: NewRequestLogEntry): void;
  /** Extra Host names accepted besides loopback (when bound for remote use). */
  allowedHosts: ReadonlySet<string>;
  version: string;
}
