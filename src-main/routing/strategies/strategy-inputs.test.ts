import { describe, expect, it } from 'vitest';
import { emergencyFallbackEnabled, isBudgetFailure, parseEmergencyEnv } from './emergency-fallback';
import { contextWindowOf } from './model-context-windows';
import { countTools, toolsLimitFrom } from './tools-limit';

describe('strategy inputs', () => {
  it('ROUTE-4: recognises real providers’ tool-count refusals, and only those', () => {
    expect(
      toolsLimitFrom(
        400,
        "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 325 instead.",
        325,
      ),
    ).toBe(129);
    expect(toolsLimitFrom(400, 'You may not include more than 128 tools in your request.', 140)).toBe(129);
    expect(toolsLimitFrom(400, 'Too many tools were provided', 90)).toBe(90);
    expect(toolsLimitFrom(400, 'messages: field required', 90)).toBeNull();
    expect(toolsLimitFrom(429, 'too many tools', 90)).toBeNull();
    expect(countTools(Buffer.from('{"tools":[{},{},{}]}'))).toBe(3);
    expect(countTools(Buffer.from('not json'))).toBe(0);
  });

  it('ROUTE-5: budget failures, the env switch and the runtime override (override wins, QENV-5)', () => {
    expect(isBudgetFailure(402, '')).toBe(true);
    expect(isBudgetFailure(429, '{"error":{"code":"insufficient_quota"}}')).toBe(false);
    expect(isBudgetFailure(403, 'Your credit balance is too low')).toBe(true);
    expect(isBudgetFailure(500, 'temporary upstream timeout')).toBe(false);
    expect(isBudgetFailure(400, 'Budget has been exceeded! Current cost: 10.2, Max budget: 10.0')).toBe(true);
    // Anthropic's thinking budget is a request field, not money.
    expect(isBudgetFailure(400, 'thinking.budget_tokens: must be at least 1024')).toBe(false);
    expect(parseEmergencyEnv('true', false)).toBe(true);
    expect(parseEmergencyEnv('0', true)).toBe(false);
    expect(parseEmergencyEnv(undefined, false)).toBe(false);
    expect(parseEmergencyEnv('maybe', true)).toBe(true);
    expect(emergencyFallbackEnabled(true, false)).toBe(false);
    expect(emergencyFallbackEnabled(false, true)).toBe(true);
    expect(emergencyFallbackEnabled(true, null)).toBe(true);
  });

  it('ROUTE-1: the context-window table knows the common families', () => {
    expect(contextWindowOf('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowOf('openai/gpt-4o-mini')).toBe(128_000);
    expect(contextWindowOf('my-local-model')).toBeNull();
  });
});
