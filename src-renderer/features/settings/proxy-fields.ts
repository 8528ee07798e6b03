import type { SectionSpec } from './field-spec';

/** The proxy's own settings (`settings.update`); the core refuses values outside the range. */
export const PROXY_SECTION: SectionSpec = {
  id: 'proxy',
  title: 'Proxy',
  intro: 'Timeouts and limits of the local endpoint, and how long the activity log is kept.',
  outOfRange: 'rejected',
  fields: [
    {
      path: 'streamHeadersTimeoutMs',
      label: 'Streaming header timeout',
      kind: 'ms',
      min: 1_000,
      max: 600_000,
      help: 'Wait this long for an upstream to start a streaming answer; past it the next target is tried.',
    },
    {
      path: 'responseTimeoutMs',
      label: 'Response timeout',
      kind: 'ms',
      min: 1_000,
      max: 3_600_000,
      help: 'The same for a non-streaming request, whose headers come only once the whole answer is written.',
    },
    {
      path: 'maxBodyBytes',
      label: 'Largest request body',
      kind: 'bytes',
      min: 1_024,
      max: 64 * 1024 * 1024,
      help: 'Bigger requests are refused with 413.',
    },
    {
      path: 'requestLogMaxRows',
      label: 'Activity log rows kept',
      kind: 'int',
      min: 100,
      max: 1_000_000,
    },
    {
      path: 'requestLogMaxAgeDays',
      label: 'Activity log days kept',
      kind: 'int',
      min: 1,
      max: 365,
    },
  ],
};
