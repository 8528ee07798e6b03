// The schemas, ranges and defaults live in src-shared, where the contract and the renderer read them too.
export {
  DEFAULT_WINDOW_GATE_SETTINGS,
  resolveWindowGateSettings,
  windowGateProfilePatchSchema,
  windowGateProfileSchema,
  windowGateSettingsPatchSchema,
  windowGateSettingsSchema,
  type WindowGateProfile,
  type WindowGateProfilePatch,
  type WindowGateSettings,
  type WindowGateSettingsPatch,
} from '../../../src-shared/domain/resilience-window-gate';
export { WINDOW_GATE_RANGES } from '../../../src-shared/domain/resilience-ranges';
