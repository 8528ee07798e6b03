// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import { renderWithFake } from '../../testing/render-with-fake';
import { RequestQueuesPanel } from './request-queues-panel';

afterEach(cleanup);

const glm: RequestQueueView = {
  connectionId: 'id-glm',
  connection: 'glm',
  maxConcurrent: 1,
  queued: 2,
  inFlight: 1,
  waitP50Ms: 350,
  waitP95Ms: 4_200,
  samples: 12,
  maxWaitMs: 30_000,
  executionMaxWaitMs: 600_000,
  maxQueueDepth: 2,
};

describe('request queues panel', () => {
  it('QUEUE-1: shows per connection the waiting, in-flight and wait p50/p95 with its budgets', async () => {
    await renderWithFake(<RequestQueuesPanel />, { seed: { queues: [glm] } });
    const row = within(screen.getByRole('table', { name: 'Request queues' })).getByRole('row', { name: /glm/ });
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['glm', '2', '1 / 1', '350 ms', '4.2 s']);
    expect(cells[5]).toContain('max 2 waiting');
  });

  it('QUEUE-1: without any connection limit it says nothing queues', async () => {
    await renderWithFake(<RequestQueuesPanel />);
    expect(screen.getByText(/nothing ever queues/)).toBeTruthy();
  });
});
