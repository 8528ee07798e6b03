/** One connection's request queue as the dashboard shows it (`queues.list`, QUEUE-1). */
export interface RequestQueueView {
  connectionId: string;
  connection: string;
  /** The concurrency limit the queue sits below (CONC-2); only such connections have a queue. */
  maxConcurrent: number;
  /** Requests waiting for a slot (not yet dispatched). */
  queued: number;
  inFlight: number;
  /** Wait for a slot over the recent window (immediate admissions count as 0 ms); null before any request. */
  waitP50Ms: number | null;
  waitP95Ms: number | null;
  samples: number;
  /** Budgets in force for this connection after QUEUE-7 precedence. */
  maxWaitMs: number;
  executionMaxWaitMs: number;
  maxQueueDepth: number;
}
