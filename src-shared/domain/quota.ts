import { z } from 'zod';
import { connectionNameSchema } from './connection';

/**
 * Quota sharing (seed 002, QFAIR/QWIN/QPLAN/QUI): a pool splits one upstream account's windowed
 * quota among several local keys. These are the shapes both doors, the config file and the
 * renderer share; the engine lives in src-main/quota.
 */
export const QUOTA_UNITS = ['percent', 'requests', 'tokens', 'usd'] as const;
export type QuotaUnit = (typeof QUOTA_UNITS)[number];
export const QUOTA_WINDOWS = ['5h', 'hourly', 'daily', 'weekly', 'monthly'] as const;
export type QuotaWindow = (typeof QUOTA_WINDOWS)[number];
export const QUOTA_POLICIES = ['hard', 'soft', 'burst'] as const;
export type QuotaPolicy = (typeof QUOTA_POLICIES)[number];

const HOUR_MS = 3_600_000;
/** QWIN-6; `monthly` is 30 days (OQ-20: the reference's choice, a fixed length keeps buckets aligned). */
export const QUOTA_WINDOW_MS: Readonly<Record<QuotaWindow, number>> = {
  '5h': 5 * HOUR_MS,
  hourly: HOUR_MS,
  daily: 24 * HOUR_MS,
  weekly: 7 * 24 * HOUR_MS,
  monthly: 30 * 24 * HOUR_MS,
};

/** `limit` 0 means "unknown" (a catalog entry without a published number): enforcement skips it. */
export const quotaDimensionSchema = z
  .object({
    unit: z.enum(QUOTA_UNITS),
    window: z.enum(QUOTA_WINDOWS),
    limit: z.number().finite().min(0, 'must be 0 (unknown) or more').max(1e15),
  })
  .strict()
  .refine((d) => d.unit !== 'percent' || d.limit <= 100, {
    message: 'a percent limit is at most 100',
    path: ['limit'],
  });
export type QuotaDimension = z.infer<typeof quotaDimensionSchema>;

const dimensionsSchema = z
  .array(quotaDimensionSchema)
  .max(12)
  .refine((dims) => new Set(dims.map((d) => `${d.unit}:${d.window}`)).size === dims.length, {
    message: 'each unit/window pair may appear once',
  });

export const quotaAllocationInputSchema = z
  .object({
    /** The local key's name. */
    key: z.string().trim().min(1, 'is required').max(64),
    /** Percent of each dimension's limit; 0 for every key means an equal split. */
    weight: z.number().finite().min(0).max(100).default(0),
    policy: z.enum(QUOTA_POLICIES).default('hard'),
    /** An absolute ceiling in one unit, whatever the mode and policy (QFAIR-9). */
    capValue: z.number().finite().positive().nullable().default(null),
    capUnit: z.enum(QUOTA_UNITS).nullable().default(null),
  })
  .strict()
  .refine((a) => (a.capValue === null) === (a.capUnit === null), {
    message: 'capValue and capUnit go together',
    path: ['capUnit'],
  });
export type QuotaAllocationInput = z.input<typeof quotaAllocationInputSchema>;
export type QuotaAllocation = z.output<typeof quotaAllocationInputSchema>;

export const quotaPoolNameSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, 'may contain letters, digits, ".", "_" and "-" only');

/**
 * A pool as a person writes it (config file, dialog, POST /api/quota/pools). `connection` is the
 * one-connection shorthand; `connections` lists several connections of one account family.
 * Empty `dimensions` means "use the connection's plan" (override > catalog, QPLAN-1).
 */
export const quotaPoolInputSchema = z
  .object({
    name: quotaPoolNameSchema,
    connection: connectionNameSchema.optional(),
    connections: z.array(connectionNameSchema).min(1).max(20).optional(),
    dimensions: dimensionsSchema.default([]),
    allocations: z.array(quotaAllocationInputSchema).min(1, 'needs at least one key').max(200),
    /** Overrides the global saturation threshold (QFAIR-3) for this pool; null = the global one. */
    saturationThreshold: z.number().min(0).max(1).nullable().default(null),
  })
  .strict()
  .refine((p) => p.connection !== undefined || (p.connections?.length ?? 0) > 0, {
    message: 'name a connection (connection or connections)',
    path: ['connection'],
  })
  .refine((p) => new Set(p.allocations.map((a) => a.key)).size === p.allocations.length, {
    message: 'each key may appear once',
    path: ['allocations'],
  })
  .refine((p) => p.allocations.reduce((sum, a) => sum + a.weight, 0) <= 100 + 1e-9, {
    message: 'weights add up to more than 100',
    path: ['allocations'],
  })
  .transform(({ connection, connections, ...rest }) => ({
    ...rest,
    connections: [...new Set([...(connection !== undefined ? [connection] : []), ...(connections ?? [])])],
  }));
export type QuotaPoolInput = z.input<typeof quotaPoolInputSchema>;
export type QuotaPoolSpec = z.output<typeof quotaPoolInputSchema>;

export interface QuotaAllocationView {
  keyId: string;
  key: string;
  weight: number;
  /** The weight in force: `weight`, or 100 / n when every weight in the pool is 0. */
  effectiveWeight: number;
  policy: QuotaPolicy;
  capValue: number | null;
  capUnit: QuotaUnit | null;
}

/** Where a pool's dimensions come from (QPLAN-3). */
export type QuotaDimensionsSource = 'pool' | 'manual-plan' | 'catalog' | 'none';

export interface QuotaPoolView {
  id: string;
  name: string;
  connections: string[];
  /** The pool's own dimensions as written (may be empty). */
  dimensions: QuotaDimension[];
  /** The dimensions enforced: the pool's own, else the first connection's plan. */
  effectiveDimensions: QuotaDimension[];
  dimensionsSource: QuotaDimensionsSource;
  allocations: QuotaAllocationView[];
  saturationThreshold: number | null;
  createdAt: number;
  updatedAt: number;
}

export type QuotaMode = 'generous' | 'strict';
export type QuotaBlockReason = 'fair-share' | 'cap-absolute' | 'global-saturated';

export interface QuotaKeyUsage {
  keyId: string;
  key: string;
  policy: QuotaPolicy;
  effectiveWeight: number;
  consumed: number;
  fairShare: number;
  /** fairShare − consumed (negative when over its share). */
  remaining: number;
  /** consumed − fairShare. */
  deficit: number;
  /** Over its share while the pool is generous. */
  borrowing: boolean;
  /** What the next request of this key would meet on this dimension. */
  decision: 'allow' | 'penalize' | QuotaBlockReason;
}

export interface QuotaBurnRate {
  /** Units per second, EMA over the samples (QPIPE-8: 0 with fewer than 2). */
  perSecond: number;
  timeToExhaustionMs: number | null;
  samples: number;
}

export interface QuotaDimensionUsage {
  /** `<poolId>:<unit>:<window>`. */
  dimensionKey: string;
  unit: QuotaUnit;
  window: QuotaWindow;
  windowMs: number;
  limit: number;
  consumedTotal: number;
  /** 0..1: the provider's reported utilisation where it reports one, else consumedTotal / limit. */
  globalUsedPercent: number;
  saturationSource: 'counter' | 'provider';
  mode: QuotaMode;
  keys: QuotaKeyUsage[];
  burnRate: QuotaBurnRate;
  /** Points of the burn-rate chart, oldest first. */
  history: Array<{ at: number; consumedTotal: number; perSecond: number }>;
}

export interface QuotaPoolUsage {
  poolId: string;
  name: string;
  at: number;
  saturationThreshold: number;
  dimensions: QuotaDimensionUsage[];
}

/** Provider ids of the built-in plan catalog (QPLAN-2). */
export const QUOTA_CATALOG_PROVIDERS = ['codex', 'glm', 'minimax', 'bailian', 'kimi', 'alibaba'] as const;
export type QuotaCatalogProvider = (typeof QUOTA_CATALOG_PROVIDERS)[number];

export interface QuotaPlanView {
  connection: string;
  /** The catalog entry this connection matches (by its base URL), if any. */
  catalogProvider: QuotaCatalogProvider | null;
  /** QPLAN-1/3: a manual override, the catalog, or nothing (manual setup needed). */
  source: 'manual' | 'catalog' | 'none';
  dimensions: QuotaDimension[];
  catalogDimensions: QuotaDimension[];
}

export const quotaPlanInputSchema = z
  .object({
    connection: connectionNameSchema,
    dimensions: dimensionsSchema.refine((d) => d.length > 0, 'needs at least one dimension'),
  })
  .strict();

export type QuotaStoreDriver = 'sqlite' | 'redis';

/** `quotaStore` in settings (QDRV-3, QENV-2): each null field falls back to its environment variable, then the default. */
export const quotaStoreSettingsSchema = z
  .object({
    driver: z.enum(['sqlite', 'redis']).nullable().optional(),
    redisUrl: z
      .string()
      .trim()
      .max(2_000)
      .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// or rediss:// URL')
      .nullable()
      .optional(),
    saturationThreshold: z.number().min(0).max(1).nullable().optional(),
    softDeprioritizeFactor: z.number().min(0).max(1).nullable().optional(),
    retentionDays: z.number().int().min(1).max(365).nullable().optional(),
  })
  .strict();
export type QuotaStoreSettings = z.infer<typeof quotaStoreSettingsSchema>;

/** What the store factory chose and why (the Settings › Quota Store panel). */
export interface QuotaStoreStatus {
  configured: QuotaStoreDriver;
  configuredFrom: 'setting' | 'env' | 'default';
  active: QuotaStoreDriver;
  /** The Redis URL with any password masked. */
  redisUrl: string | null;
  /** Why the active driver differs from the configured one. */
  fallbackReason: string | null;
  saturationThreshold: number;
  softDeprioritizeFactor: number;
  retentionDays: number;
}
