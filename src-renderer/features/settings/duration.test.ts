import { describe, expect, it } from 'vitest';
import { msToUnitText, parseDuration } from './duration';

describe('durations in human units (issue 13 §8)', () => {
  it('PROD-6 shows stored milliseconds in the field’s unit', () => {
    expect(msToUnitText(120_000, 'min')).toBe('2');
    expect(msToUnitText(90_000, 'min')).toBe('1.5');
    expect(msToUnitText(5_000, 's')).toBe('5');
    expect(msToUnitText(250, 's')).toBe('0.25');
    expect(msToUnitText(86_400_000, 'h')).toBe('24');
    expect(msToUnitText(1, 'min')).toBe('0');
  });

  it('PROD-6 reads a plain number in the field’s unit and rounds to whole milliseconds', () => {
    expect(parseDuration('2', 'min')).toEqual({ ok: true, ms: 120_000 });
    expect(parseDuration('1.5', 'min')).toEqual({ ok: true, ms: 90_000 });
    expect(parseDuration(' 0.0005 ', 's')).toEqual({ ok: true, ms: 1 });
    expect(parseDuration('86 400', 's')).toEqual({ ok: true, ms: 86_400_000 });
  });

  it('PROD-6 reads durations with their own units, adding them up', () => {
    expect(parseDuration('90 s', 'min')).toEqual({ ok: true, ms: 90_000 });
    expect(parseDuration('1h 30m', 's')).toEqual({ ok: true, ms: 5_400_000 });
    expect(parseDuration('1 hour 5 seconds', 'min')).toEqual({ ok: true, ms: 3_605_000 });
    expect(parseDuration('500ms', 's')).toEqual({ ok: true, ms: 500 });
    expect(parseDuration('2 d', 'h')).toEqual({ ok: true, ms: 172_800_000 });
    expect(parseDuration('3 MIN', 's')).toEqual({ ok: true, ms: 180_000 });
  });

  it('PROD-6 refuses what is not a duration, naming the unit', () => {
    expect(parseDuration('', 's')).toEqual({ ok: false, message: 'Enter a value' });
    for (const text of ['soon', '5 fortnights', '-5', '1,5', '2 min later']) {
      expect(parseDuration(text, 'min'), text).toEqual({
        ok: false,
        message: 'Enter a duration in minutes, or with its unit, e.g. 90 s or 2 min',
      });
    }
  });
});
