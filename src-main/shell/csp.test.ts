import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, parseCsp, withCspHeader } from './csp';

const indexHtml = readFileSync(join(import.meta.dirname, '..', '..', 'src-renderer', 'index.html'), 'utf8');

describe('content security policy', () => {
  it('PROD-18: the header forbids eval, inline script, plugins, <base>, form posts and framing', () => {
    const csp = parseCsp(CONTENT_SECURITY_POLICY);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it("PROD-18: the header allows nothing the renderer's own meta CSP forbids", () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml)?.[1];
    expect(meta).toBeDefined();
    const header = parseCsp(CONTENT_SECURITY_POLICY);
    for (const [directive, sources] of parseCsp(meta ?? '')) expect(header.get(directive), directive).toEqual(sources);
  });

  it('PROD-18: the header replaces any other CSP, whatever its case, and keeps the other headers', () => {
    const out = withCspHeader({
      'content-security-policy': ['default-src *'],
      'Content-Type': 'text/html',
      'X-A': ['1', '2'],
    });
    expect(out).toEqual({
      'Content-Type': ['text/html'],
      'X-A': ['1', '2'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(withCspHeader(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});
