import type { SectionSpec } from './field-spec';

/** CONC-5: `Settings › Resilience` "Quota-share per-connection concurrency" (default on). */
export const QUOTA_SHARE_CONCURRENCY_SECTION: SectionSpec = {
  id: 'quotaShareConcurrencyLimit',
  title: 'Quota-share per-connection concurrency',
  intro:
    'When on, requests that quota-share dispatch sends to a connection with a max concurrency wait for a free slot there (the semaphore fails open when its queue is full). Connections without a max concurrency are not affected.',
  outOfRange: 'rejected',
  fields: [
    {
      path: 'quotaShareConcurrencyLimit.enabled',
      label: 'Serialise quota-share requests per connection',
      kind: 'bool',
      help: 'Uses each connection’s “Max concurrent” setting (e.g. about 1 for GLM, 2 for MiniMax).',
    },
  ],
};
