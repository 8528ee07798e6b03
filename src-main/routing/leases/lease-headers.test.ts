import { describe, expect, it } from 'vitest';
import { readLeaseHeaders } from './lease-headers';

const OWNER = `vlo_${'A'.repeat(42)}_`;
const OTHER = `vlo_${'b'.repeat(42)}-`;

describe('readLeaseHeaders', () => {
  it('PROD-15: Leeway’s lease headers are read and listed to strip', () => {
    expect(readLeaseHeaders({ 'x-leeway-lease-owner': OWNER, 'x-leeway-lease-generation': '7' })).toEqual({
      presented: { kind: 'present', owner: OWNER, generation: 7 },
      strip: ['x-leeway-lease-owner', 'x-leeway-lease-generation'],
    });
  });

  it('PROD-15: the x-omniroute aliases work, and the Leeway names win when both are sent; all four are stripped', () => {
    expect(
      readLeaseHeaders({ 'x-omniroute-lease-owner': OTHER, 'x-omniroute-lease-generation': '2' }).presented,
    ).toEqual({
      kind: 'present',
      owner: OTHER,
      generation: 2,
    });
    const both = readLeaseHeaders({
      'x-leeway-lease-owner': OWNER,
      'x-omniroute-lease-owner': OTHER,
      'x-leeway-lease-generation': '3',
      'x-omniroute-lease-generation': '4',
    });
    expect(both.presented).toEqual({ kind: 'present', owner: OWNER, generation: 3 });
    expect(both.strip).toHaveLength(4);
  });

  it('LEASE-7: an owner that is not vlo_ plus 43 base64url characters is refused', () => {
    for (const owner of ['vlo_short', `vlo_${'A'.repeat(44)}`, `xyz_${'A'.repeat(43)}`, `vlo_${'A'.repeat(42)}=`]) {
      expect(
        readLeaseHeaders({ 'x-leeway-lease-owner': owner, 'x-leeway-lease-generation': '1' }).presented,
      ).toMatchObject({
        kind: 'refused',
        code: 'lease_headers_invalid',
      });
    }
  });

  it('LEASE-6: an owner without its generation, or a generation that is not a positive integer, is refused', () => {
    for (const generation of [undefined, '0', '-1', '1.5', '01', 'abc', '99999999999999999']) {
      const headers =
        generation === undefined
          ? { 'x-leeway-lease-owner': OWNER }
          : { 'x-leeway-lease-owner': OWNER, 'x-leeway-lease-generation': generation };
      expect(readLeaseHeaders(headers).presented).toMatchObject({ kind: 'refused', code: 'lease_headers_invalid' });
    }
    expect(readLeaseHeaders({ 'x-leeway-lease-generation': '1' }).strip).toEqual(['x-leeway-lease-generation']);
  });

  it('LEASE-10: a request without lease headers presents none and has nothing to strip', () => {
    expect(readLeaseHeaders({ 'x-api-key': 'lw-x', 'x-session-id': 's' })).toEqual({
      presented: { kind: 'none' },
      strip: [],
    });
  });
});
