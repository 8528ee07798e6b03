import { describe, expect, it } from 'vitest';
import { readLeaseHeaders } from './lease-headers';

const OWNER = `vlo_${'A'.repeat(42)}_`;
const OTHER = `vlo_${'b'.repeat(42)}-`;

describe('readLeaseHeaders', () => {
  it('PROD-15: Headroom’s lease headers are read and listed to strip', () => {
    expect(readLeaseHeaders({ 'x-headroom-lease-owner': OWNER, 'x-headroom-lease-generation': '7' })).toEqual({
      presented: { kind: 'present', owner: OWNER, generation: 7 },
      strip: ['x-headroom-lease-owner', 'x-headroom-lease-generation'],
    });
  });

  it('PROD-15: the x-omniroute aliases work, and the Headroom names win when both are sent; all four are stripped', () => {
    expect(
      readLeaseHeaders({ 'x-omniroute-lease-owner': OTHER, 'x-omniroute-lease-generation': '2' }).presented,
    ).toEqual({
      kind: 'present',
      owner: OTHER,
      generation: 2,
    });
    const both = readLeaseHeaders({
      'x-headroom-lease-owner': OWNER,
      'x-omniroute-lease-owner': OTHER,
      'x-headroom-lease-generation': '3',
      'x-omniroute-lease-generation': '4',
    });
    expect(both.presented).toEqual({ kind: 'present', owner: OWNER, generation: 3 });
    expect(both.strip).toHaveLength(4);
  });

  it('LEASE-7: an owner that is not vlo_ plus 43 base64url characters is refused', () => {
    for (const owner of ['vlo_short', `vlo_${'A'.repeat(44)}`, `xyz_${'A'.repeat(43)}`, `vlo_${'A'.repeat(42)}=`]) {
      expect(
        readLeaseHeaders({ 'x-headroom-lease-owner': owner, 'x-headroom-lease-generation': '1' }).presented,
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
          ? { 'x-headroom-lease-owner': OWNER }
          : { 'x-headroom-lease-owner': OWNER, 'x-headroom-lease-generation': generation };
      expect(readLeaseHeaders(headers).presented).toMatchObject({ kind: 'refused', code: 'lease_headers_invalid' });
    }
    expect(readLeaseHeaders({ 'x-headroom-lease-generation': '1' }).strip).toEqual(['x-headroom-lease-generation']);
  });

  it('LEASE-10: a request without lease headers presents none and has nothing to strip', () => {
    expect(readLeaseHeaders({ 'x-api-key': 'hr-x', 'x-session-id': 's' })).toEqual({
      presented: { kind: 'none' },
      strip: [],
    });
  });
});
