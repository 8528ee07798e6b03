import type { ConnectionView } from '../../src-shared/domain/connection';
import { cooldownSettingsSchema, type CooldownSettings } from './cooldown/cooldown-settings';
import type { ProviderProfile } from './provider-identity';

const cache = new WeakMap<ConnectionView, { base: CooldownSettings; result: CooldownSettings }>();

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Cooldown settings for one connection: the global section with the connection's own
 * `providerSpecificData.resilience.cooldown` patch on its profile (per-connection wins over stored
 * and env settings). The patch goes through the same schema, so it is clamped like the rest.
 */
export function cooldownSettingsFor(view: ConnectionView, profile: ProviderProfile, base: CooldownSettings): CooldownSettings {
  const resilience = view.providerSpecificData.resilience;
  const patch = isRecord(resilience) && isRecord(resilience.cooldown) ? resilience.cooldown : null;
  if (!patch) return base;
  const hit = cache.get(view);
  if (hit && hit.base === base) return hit.result;
  const parsed = cooldownSettingsSchema.safeParse({ ...base, [profile]: { ...base[profile], ...patch } });
  // An invalid override is ignored rather than taking the connection down; the editor validates on save.
  const result = parsed.success ? parsed.data : base;
  cache.set(view, { base, result });
  return result;
}
