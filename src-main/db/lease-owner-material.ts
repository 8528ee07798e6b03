import { createHash, randomBytes } from 'node:crypto';

/** A fresh lease owner id (LEASE-7): `vlo_` + 32 CSPRNG bytes as base64url (43 characters, no padding). */
export function mintLeaseOwner(): { owner: string; ownerHash: string } {
  const owner = `vlo_${randomBytes(32).toString('base64url')}`;
  return { owner, ownerHash: hashLeaseOwner(owner) };
}

/** What is stored and looked up instead of the owner id: SHA-256, lowercase hex (LEASE-7). */
export function hashLeaseOwner(owner: string): string {
  return createHash('sha256').update(owner, 'utf8').digest('hex');
}
