import { describe, expect, it } from 'vitest';
import { QUOTE_MAX_CHARS, quoteUserText, stripControlChars } from './quote-user-text';

describe('quoting client text in an error', () => {
  it('ISSUE-8: short text is quoted whole; long text is cut to a prefix with an ellipsis', () => {
    expect(quoteUserText('gpt-4o')).toBe('"gpt-4o"');
    const quoted = quoteUserText('m'.repeat(10 * 1024 * 1024));
    expect(quoted).toBe(`"${'m'.repeat(QUOTE_MAX_CHARS)}…"`);
    expect(quoteUserText('x'.repeat(QUOTE_MAX_CHARS))).toBe(`"${'x'.repeat(QUOTE_MAX_CHARS)}"`);
  });

  it('ISSUE-8: control characters are dropped and a surrogate pair is never split', () => {
    expect(quoteUserText('a\r\nb\u0000c\u001b[2J\u0085')).toBe('"abc[2J"');
    expect(stripControlChars('ok\u007f\u009f')).toBe('ok');
    const quoted = quoteUserText(`${'a'.repeat(QUOTE_MAX_CHARS - 1)}😀tail`);
    expect(quoted).toBe(`"${'a'.repeat(QUOTE_MAX_CHARS - 1)}…"`);
  });
});
