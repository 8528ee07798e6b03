import type { CooldownProfileSettings, CooldownSettings } from '../../../src-shared/domain/resilience-cooldown';
import type { ProviderProfile } from '../../kernel/provider-identity';

// The schemas, ranges and defaults live in src-shared, where the contract and the renderer read them too.
export {
  APIKEY_COOLDOWN_DEFAULTS,
  DEFAULT_COOLDOWN_SETTINGS,
  OAUTH_COOLDOWN_DEFAULTS,
  cooldownProfilePatchSchema,
  cooldownSettingsPatchSchema,
  cooldownSettingsSchema,
  type CooldownProfilePatch,
  type CooldownProfileSettings,
  type CooldownSettings,
  type CooldownSettingsPatch,
} from '../../../src-shared/domain/resilience-cooldown';

/** What `recordConnectionFailure` needs to know beyond the failure: settings, which profile, the connection's opt-out. */
export interface CooldownContext {
  settings: CooldownSettings;
  profile: ProviderProfile;
  /** Per-connection opt-out (COOL-15): no transient cooldown is written; terminal states still apply. */
  disableCooling: boolean;
}

export function profileCooldown(settings: CooldownSettings, profile: ProviderProfile): CooldownProfileSettings {
  switch (profile) {
    case 'oauth':
      return settings.oauth;
    case 'apikey':
      return settings.apikey;
    case 'local':
      return settings.local;
  }
}
