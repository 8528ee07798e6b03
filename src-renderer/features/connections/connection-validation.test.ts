import { describe, expect, it } from 'vitest';
import { emptyForm } from './connection-form';
import { connectionStatus, formatCountdown } from './connection-status';
import { buildConnectionInput, errorsFromAppError } from './connection-validation';

describe('connection form rules', () => {
  it('PROD-5 drops the Claude keys when a connection stops being claude-oauth, keeping other provider data', () => {
    const form = {
      ...emptyForm(),
      name: 'a',
      kind: 'anthropic' as const,
      lowPriorityMode: true,
      otherProviderData: { organizationUUID: 'org-1' },
    };
    const built = buildConnectionInput(form, { kind: 'anthropic' });
    expect(built).toEqual({
      ok: true,
      input: expect.objectContaining({ providerSpecificData: { organizationUUID: 'org-1' } }),
    });
  });

  it('PROD-5 asks for a new credential when an edit switches between API-key and OAuth kinds', () => {
    const built = buildConnectionInput({ ...emptyForm(), name: 'a', kind: 'claude-oauth' }, { kind: 'anthropic' });
    expect(built).toEqual({ ok: false, errors: { secret: 'changing to this kind needs a new credential' } });
  });

  it('PROD-5 reads field issues from details.issues, else from the "path: message" text, else shows the message', () => {
    const details = { issues: [{ path: 'models.1', message: 'is empty' }] };
    expect(errorsFromAppError({ code: 'invalid_input', message: 'x', details })).toEqual({ models: '1: is empty' });
    expect(errorsFromAppError({ code: 'invalid_input', message: 'name: is required; (input): bad' })).toEqual({
      name: 'is required',
      form: 'bad',
    });
    expect(errorsFromAppError({ code: 'conflict', message: 'in use' })).toEqual({ form: 'in use' });
  });

  it('PROD-6 COOL-11 a cooldown whose time has passed reads as OK; countdowns round up and never show 00:00 while cooling', () => {
    const row = {
      id: 'i',
      name: 'a',
      provider: 'p',
      rateLimitedUntil: 10_000,
      backoffLevel: 1,
      testStatus: 'unavailable' as const,
      lastError: null,
      lastErrorType: null,
      errorCode: null,
      terminal: false,
      retryAfterMs: null,
    };
    expect(connectionStatus(row, 9_001)).toEqual({ kind: 'cooling', remainingMs: 999 });
    expect(formatCountdown(999)).toBe('00:01');
    expect(connectionStatus(row, 10_000)).toEqual({ kind: 'ok' });
    expect(connectionStatus(undefined, 0, false)).toEqual({ kind: 'unknown' });
    expect(formatCountdown(3_725_000)).toBe('1:02:05');
  });
});
