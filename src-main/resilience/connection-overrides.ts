import type { ConnectionView } from '../../src-shared/domain/connection';
import {
  cooldownProfilePatchSchema,
  cooldownSettingsSchema,
  type CooldownSettings,
} from './cooldown/cooldown-settings';
import type { ProviderProfile } from '../kernel/provider-identity';

const cache = new WeakMap<ConnectionView, { base: CooldownSettings; result: CooldownSettings }>();

/**
 * Cooldown settings for one connection: the global section with the connection's own
 * `providerSpecificData.resilience.cooldown` patch on its profile (per-connection wins over stored
 * and env settings). The patch goes through the same schemas, so it is clamped like the rest.
 */
export function cooldownSettingsFor(
  view: ConnectionView,
  profile: ProviderProfile,
  base: CooldownSettings,
): CooldownSettings {
  // Rows are read back unchecked (a hand edit, an older version), so the type is not trusted here.
  const raw: unknown = view.providerSpecificData.resilience;
  const cooldown = typeof raw === 'object' && raw !== null && 'cooldown' in raw ? raw.cooldown : undefined;
  if (cooldown === undefined) return base;
  const hit = cache.get(view);
  if (hit && hit.base === base) return hit.result;
  const patch = cooldownProfilePatchSchema.safeParse(cooldown);
  const parsed = patch.success
    ? cooldownSettingsSchema.safeParse({ ...base, [profile]: { ...base[profile], ...patch.data } })
    : patch;
  // An invalid override is ignored rather than taking the connection down; the contract refuses it on save.
  const result = parsed.success ? parsed.data : base;
  cache.set(view, { base, result });
  return result;
}
