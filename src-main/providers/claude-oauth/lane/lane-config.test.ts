import { describe, expect, it } from 'vitest';
import { isLaneEligible, laneKey, readLaneOptIns } from './lane-config';

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-1, RESET-1: undefined or {} means both opt-ins are off', () => {
    expect(readLaneOptIns(undefined)).toEqual({ lowPriorityMode: false, autoLimitReset: false });
    expect(readLaneOptIns({})).toEqual({ lowPriorityMode: false, autoLimitReset: false });
    expect(readLaneOptIns(null)).toEqual({ lowPriorityMode: false, autoLimitReset: false });
  });

  it('LOWP-1, RESET-1: only the literal boolean true enables; the string "true" and 1 do not', () => {
    expect(readLaneOptIns({ lowPriorityMode: 'true', autoLimitReset: 1 })).toEqual({
      lowPriorityMode: false,
      autoLimitReset: false,
    });
    expect(readLaneOptIns({ lowPriorityMode: true, autoLimitReset: true })).toEqual({
      lowPriorityMode: true,
      autoLimitReset: true,
    });
    expect(readLaneOptIns({ lowPriorityMode: true })).toEqual({ lowPriorityMode: true, autoLimitReset: false });
  });

  it('LOWP-13: the state key prefers the connection id over the token, and falls back to "anon"', () => {
    expect(laneKey('conn-1', 'sk-ant-oat01-x')).toBe('conn-1');
    expect(laneKey(undefined, 'sk-ant-oat01-x')).toBe('sk-ant-oat01-x');
    expect(laneKey('', '')).toBe('anon');
    expect(laneKey(null, null)).toBe('anon');
  });

  it('LOWP-1: only Claude OAuth connections with an sk-ant-oat token and no API key are eligible', () => {
    expect(isLaneEligible('claude-oauth', 'sk-ant-oat01-abc')).toBe(true);
    expect(isLaneEligible('claude-oauth', 'sk-ant-oat01-abc', 'sk-ant-api03-x')).toBe(false);
    expect(isLaneEligible('claude-oauth', 'some-other-token')).toBe(false);
    expect(isLaneEligible('anthropic', 'sk-ant-oat01-abc')).toBe(false);
    expect(isLaneEligible('claude-oauth', undefined)).toBe(false);
  });
});
