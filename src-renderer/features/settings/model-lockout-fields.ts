import { DEFAULT_MODEL_LOCKOUT_SETTINGS } from '../../../src-shared/domain/resilience-lockout';
import { MODEL_LOCKOUT_RANGES as L } from '../../../src-shared/domain/resilience-ranges';
import type { SectionSpec } from './field-spec';

/** LOCK-9 / LOCK-10: `Settings › Model Lockout`; the core clamps and keeps max ≥ base. */
export const MODEL_LOCKOUT_SECTION: SectionSpec = {
  id: 'modelLockout',
  title: 'Model lockout',
  intro:
    'Off by default. When on, a failing model is benched on one connection only, while that connection keeps serving its other models. Active lockouts are listed under Cooldowns.',
  outOfRange: 'clamped',
  fields: [
    { path: 'modelLockout.enabled', label: 'Enable model lockout', kind: 'bool' },
    {
      path: 'modelLockout.errorCodes',
      label: 'Counted statuses',
      kind: 'codes',
      help: `Upstream HTTP statuses that count as a model failure. Default ${DEFAULT_MODEL_LOCKOUT_SETTINGS.errorCodes.join(', ')}.`,
    },
    { path: 'modelLockout.baseCooldownMs', label: 'First lockout', kind: 'ms', unit: 'min', ...L.baseCooldownMs },
    {
      path: 'modelLockout.maxCooldownMs',
      label: 'Longest lockout',
      kind: 'ms',
      unit: 'min',
      ...L.maxCooldownMs,
      help: 'Raised to at least the first lockout.',
    },
    { path: 'modelLockout.maxBackoffSteps', label: 'Escalation steps', kind: 'int', ...L.maxBackoffSteps },
    {
      path: 'modelLockout.useExponentialBackoff',
      label: 'Escalate repeated failures',
      kind: 'bool',
      help: 'Double the lockout for each repeat, up to the longest lockout.',
    },
  ],
};
