import { describe, expect, it } from 'vitest';
import { excerptUpstreamText, MAX_UPSTREAM_EXCERPT, redactSecrets } from './message';

describe('failure message', () => {
  it('COOL-2: credentials echoed by an upstream are masked', () => {
    expect(redactSecrets('Incorrect API key provided: sk-ant-api03-AbCdEf123456')).toBe(
      'Incorrect API key provided: sk-***',
    );
    expect(redactSecrets('Authorization: Bearer abc.def.ghi-123')).toBe('Authorization: Bearer ***');
    expect(redactSecrets('token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).not.toContain('eyJhbGci');
    expect(redactSecrets('api_key="q1w2e3r4t5y6"')).toBe('api_key="***"');
    expect(redactSecrets('cookie 0123456789abcdef0123456789abcdef01')).toBe('cookie ***');
  });

  it('COOL-2: model ids and ordinary words survive', () => {
    const text = 'model claude-3-5-sonnet-20241022 is overloaded; max_tokens: 8192';
    expect(redactSecrets(text)).toBe(text);
  });

  it('COOL-2: HTML is stripped, whitespace collapsed, and the excerpt bounded', () => {
    expect(excerptUpstreamText('<html><h1>502   Bad\nGateway</h1></html>')).toBe('502 Bad Gateway');
    const long = excerptUpstreamText('a '.repeat(1_000));
    expect(long.length).toBe(MAX_UPSTREAM_EXCERPT);
    expect(long.endsWith('…')).toBe(true);
  });
});
