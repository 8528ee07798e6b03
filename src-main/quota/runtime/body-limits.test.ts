import { describe, expect, it } from 'vitest';
import { maxTokensOf } from './body-limits';
import { createWarnLimiter } from './warn-limiter';

describe('answer budget from the raw body', () => {
  it('QPIPE-1: finds max_tokens and its Chat Completions / Responses aliases without parsing', () => {
    expect(maxTokensOf(Buffer.from('{"model":"m","max_tokens": 1024,"messages":[]}'))).toBe(1024);
    expect(maxTokensOf(Buffer.from('{"max_completion_tokens":77}'))).toBe(77);
    expect(maxTokensOf(Buffer.from('{"max_output_tokens" :\n 9}'))).toBe(9);
    expect(maxTokensOf(Buffer.from('{"model":"m"}'))).toBeNull();
    expect(maxTokensOf(Buffer.from('{"max_tokens":"lots"}'))).toBeNull();
  });
});

describe('warn limiter', () => {
  it('QPIPE-3: one line per 10 s, then the count of what was held back', () => {
    const lines: string[] = [];
    const warn = createWarnLimiter((l) => lines.push(l));
    warn('down', 0);
    warn('down', 1_000);
    warn('down', 9_999);
    expect(lines).toEqual(['down']);
    warn('down', 10_000);
    expect(lines[1]).toBe('down (+2 more like this in the last 10s)');
  });
});
