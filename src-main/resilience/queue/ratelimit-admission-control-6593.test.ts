import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../src-shared/contract/errors';
import { resolveResilienceSettings } from '../resilience-settings';
import {
  checkQueueAdmission,
  DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS,
  executionTimeoutError,
  queueTimeoutError,
} from './engine/queue-admission';
import { resolveQueueBudgets } from './engine/queue-budgets';
import { requestQueueFromEnv } from './queue-env';

const queueOf = (stored: Record<string, unknown>, env: Record<string, string>) => {
  const resolved = resolveResilienceSettings(stored, env);
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.issues));
  return resolved.value.requestQueue;
};

describe('ratelimit-admission-control-6593', () => {
  it('TEST-9, QUEUE-3: the default queue wait budget is 30 000 ms, with no env and nothing stored', () => {
    expect(DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS).toBe(30_000);
    expect(queueOf({}, {}).maxWaitMs).toBe(30_000);
  });

  it('QUEUE-4, QUEUE-9: executionMaxWaitMs defaults to 600 000 ms and maxQueueDepth to 0 (unbounded)', () => {
    expect(queueOf({}, {})).toEqual({ maxWaitMs: 30_000, executionMaxWaitMs: 600_000, maxQueueDepth: 0 });
  });

  it('QUEUE-10, QUEUE-9: checkQueueAdmission admits when the cap is 0 or negative, or when there is room', () => {
    expect(checkQueueAdmission(0, 0)).toBeNull();
    expect(checkQueueAdmission(1000, 0)).toBeNull();
    expect(checkQueueAdmission(5, -1)).toBeNull();
    expect(checkQueueAdmission(0, 2)).toBeNull();
    expect(checkQueueAdmission(1, 2)).toBeNull();
  });

  it('QUEUE-8, QUEUE-10: a queue holding maxQueueDepth (or more) refuses with RATE_LIMIT_QUEUE_FULL, 429 and Retry-After', () => {
    for (const queued of [2, 5]) {
      const error = checkQueueAdmission(queued, 2, 'openai/gpt-4o');
      expect(error?.code).toBe('RATE_LIMIT_QUEUE_FULL');
      if (!error) continue;
      expect(statusOf(error)).toBe(429);
      expect(error.retryAfterMs).toBeGreaterThan(0);
      expect(error.message).toContain('maxQueueDepth');
      expect(error.message).toContain('openai/gpt-4o');
    }
  });

  it('QUEUE-3, QUEUE-5: a queue timeout is 503 and an execution expiry 504, two distinct codes', () => {
    const timeout = queueTimeoutError('glm/glm-4.6', 500);
    const expiry = executionTimeoutError('glm/glm-4.6', 600_000);
    expect([timeout.code, statusOf(timeout)]).toEqual(['RATE_LIMIT_QUEUE_TIMEOUT', 503]);
    expect([expiry.code, statusOf(expiry)]).toEqual(['RATE_LIMIT_EXECUTION_TIMEOUT', 504]);
  });

  it('QUEUE-6, QUEUE-9, QENV-4: the env variables set the defaults; invalid values fall back, large budgets clamp to 24 h', () => {
    expect(
      queueOf(
        {},
        {
          RATE_LIMIT_MAX_WAIT_MS: '45000',
          RATE_LIMIT_EXECUTION_MAX_WAIT_MS: '900000',
          RATE_LIMIT_MAX_QUEUE_DEPTH: '3',
        },
      ),
    ).toEqual({ maxWaitMs: 45_000, executionMaxWaitMs: 900_000, maxQueueDepth: 3 });
    expect(requestQueueFromEnv({ RATE_LIMIT_MAX_WAIT_MS: '-5', RATE_LIMIT_EXECUTION_MAX_WAIT_MS: 'soon' })).toEqual({});
    expect(requestQueueFromEnv({ RATE_LIMIT_MAX_WAIT_MS: '0', RATE_LIMIT_MAX_QUEUE_DEPTH: '-1' })).toEqual({});
    expect(requestQueueFromEnv({ RATE_LIMIT_MAX_WAIT_MS: '999999999', RATE_LIMIT_MAX_QUEUE_DEPTH: '5000000' })).toEqual(
      { maxWaitMs: 86_400_000, maxQueueDepth: 100_000 },
    );
  });

  it('QUEUE-2: setting one budget leaves the other untouched (stored or env)', () => {
    expect(queueOf({ requestQueue: { maxWaitMs: 120_000 } }, {}).executionMaxWaitMs).toBe(600_000);
    expect(queueOf({ requestQueue: { executionMaxWaitMs: 900_000 } }, {}).maxWaitMs).toBe(30_000);
    expect(queueOf({}, { RATE_LIMIT_EXECUTION_MAX_WAIT_MS: '900000' }).maxWaitMs).toBe(30_000);
  });

  it('QUEUE-7: with a stored value, changing the env variable has no effect; a positive connection override beats both', () => {
    const stored = { requestQueue: { maxWaitMs: 240_000 } };
    expect(queueOf(stored, { RATE_LIMIT_MAX_WAIT_MS: '1000' }).maxWaitMs).toBe(240_000);
    expect(queueOf(stored, { RATE_LIMIT_MAX_WAIT_MS: '9000' }).maxWaitMs).toBe(240_000);
    const settings = queueOf(stored, { RATE_LIMIT_MAX_QUEUE_DEPTH: '4' });
    expect(resolveQueueBudgets(settings, { maxWaitMs: 45_000 }, 0).maxWaitMs).toBe(45_000);
    // An override of 0 means "no override".
    expect(resolveQueueBudgets(settings, { maxWaitMs: 0, maxQueueDepth: 0 }, 0)).toMatchObject({
      maxWaitMs: 240_000,
      maxQueueDepth: 4,
    });
  });

  it('QUEUE-4: the execution backstop is never below the request’s own response timeout', () => {
    const settings = queueOf({ requestQueue: { executionMaxWaitMs: 1_000 } }, {});
    expect(resolveQueueBudgets(settings, undefined, 300_000).executionMs).toBe(300_000);
    expect(resolveQueueBudgets(settings, { executionMaxWaitMs: 900_000 }, 300_000).executionMs).toBe(900_000);
  });

  it('QUEUE-6: the stored schema refuses a budget outside 1 ms – 24 h instead of taking it', () => {
    expect(resolveResilienceSettings({ requestQueue: { maxWaitMs: 0 } }, {}).ok).toBe(false);
    expect(resolveResilienceSettings({ requestQueue: { maxWaitMs: 300_000 } }, {}).ok).toBe(true);
  });
});
