import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * What the answer-start, usage tap, watchdog and relay read of an upstream answer: undici's
 * ResponseData fits it, and so does a translated answer (`translate/bridge-response.ts`).
 */
export interface UpstreamAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}
