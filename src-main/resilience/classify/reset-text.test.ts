import { describe, expect, it } from 'vitest';
import { NOW } from './classify.testkit';
import { MAX_RETRY_HINT_MS, parseDurationText } from './durations';
import { parseRetryFromText } from './reset-text';

const parse = (text: string) => parseRetryFromText(text, NOW);

describe('reset times in error text', () => {
  it('COOL-4: "try again in …" with compact and spelled-out durations', () => {
    expect(parse('Rate limit reached. Please try again in 20s.')).toBe(20_000);
    expect(parse('Please try again in 6m0s.')).toBe(360_000);
    expect(parse('Please try again in 1.5s')).toBe(1_500);
    expect(parse('Please try again in 120ms.')).toBe(120);
    expect(parse('Try again in 2 minutes')).toBe(120_000);
    expect(parse('Please wait for 1 hour and 30 minutes')).toBe(5_400_000);
    expect(parse('please retry in 33.2 s')).toBe(33_200);
  });

  it('COOL-4: "reset(s) after / in XhYmZs" (reference §3.6 examples)', () => {
    expect(parse('quota will reset after 2h30m14s')).toBe(9_014_000);
    expect(parse('reset after 45m')).toBe(2_700_000);
    expect(parse('reset after 30s')).toBe(30_000);
    expect(parse('Individual quota reached. Resets in 164h27m24s')).toBe(592_044_000);
    expect(parse('monthly usage limit reached, resets in 13 days')).toBe(13 * 86_400_000);
  });

  it('COOL-4: compound durations are capped at 30 days', () => {
    expect(parse('Resets in 2400h')).toBe(MAX_RETRY_HINT_MS);
  });

  it('COOL-4: "resets at <timestamp>" and friends, future only', () => {
    expect(parse('Your limit resets at 2025-06-01T15:00:00Z.')).toBe(3 * 3_600_000);
    expect(parse('available again at 2025-06-01 13:00:00 UTC')).toBe(3_600_000);
    expect(parse('please wait until 2025-06-01T12:30:00+00:00')).toBe(30 * 60_000);
    expect(parse('limit resets at 2025-06-01T11:00:00Z')).toBeNull();
  });

  it('COOL-4: structured hints inside the text (RetryInfo, Claude epoch, JSON reset fields)', () => {
    expect(parse('{"error":{"details":[{"@type":"RetryInfo","retryDelay":"33s"}]}}')).toBe(33_000);
    expect(parse(`Claude AI usage limit reached|${Math.floor((NOW + 7_200_000) / 1000)}`)).toBe(7_200_000);
    expect(parse(`{"error":{"resets_at":${Math.floor((NOW + 60_000) / 1000)}}}`)).toBe(60_000);
    expect(parse('{"error":{"resetsAt":"2025-06-01T12:10:00Z"}}')).toBe(600_000);
    expect(parse('{"error":{"retry_after":30}}')).toBe(30_000);
    expect(parse('{"error":{"retry_after_ms":1500}}')).toBe(1_500);
  });

  it('COOL-4: text without a reset is no hint', () => {
    expect(parse('')).toBeNull();
    expect(parse('Rate limit exceeded')).toBeNull();
    expect(parse('try again later')).toBeNull();
    expect(parse('retry in 0s')).toBeNull();
  });
});

describe('duration text', () => {
  it('COOL-4: sums unit parts and ignores words that only start like a unit', () => {
    expect(parseDurationText('1d2h3m4s5ms')).toBe(93_784_005);
    expect(parseDurationText('3 hrs 10 mins')).toBe(11_400_000);
    expect(parseDurationText('5 sheep')).toBeNull();
  });
});
