// The schema, ranges and defaults live in src-shared, where the contract and the renderer read them too.
export {
  DEFAULT_LOCKOUT_ERROR_CODES,
  DEFAULT_MODEL_LOCKOUT_SETTINGS,
  modelLockoutSettingsPatchSchema,
  modelLockoutSettingsSchema,
  type ModelLockoutSettings,
  type ModelLockoutSettingsPatch,
} from '../../../src-shared/domain/resilience-lockout';
