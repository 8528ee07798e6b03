import { z } from 'zod';

/** The dashboard's clear action for leases: every active lease, or the one a connection holds. */
export const leaseClearSchema = z.discriminatedUnion('target', [
  z.object({ target: z.literal('all') }).strict(),
  z.object({ target: z.literal('connection'), connection: z.string().trim().min(1) }).strict(),
]);
export type LeaseClear = z.infer<typeof leaseClearSchema>;
