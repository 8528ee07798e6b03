// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { AppHeader } from './app-header';
import { TODAY_RESYNC_MS } from './use-requests-today';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const badge = (): HTMLElement => screen.getByTestId('requests-today');

describe('requests today in the header (issue 13 §4)', () => {
  it('shows the core count at once and counts each finished request live', async () => {
    const { fake } = await renderWithFake(<AppHeader />, { now: () => Date.now() });
    expect(badge().textContent).toBe('0 requests today');
    act(() => {
      fake.recordRequest({ ts: Date.now() });
    });
    expect(badge().textContent).toBe('1 request today');
    act(() => {
      fake.recordRequest({ ts: Date.now(), status: 503 });
    });
    expect(badge().dataset.count).toBe('2');
    expect(badge().textContent).toBe('2 requests today · 1 error');
  });

  it("ignores a request from before midnight and re-reads the core's count after traffic", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fake, inputsOf } = await renderWithFake(<AppHeader />, { now: () => Date.now() });
    act(() => {
      fake.recordRequest({ ts: Date.now() - 2 * 86_400_000 });
    });
    expect(badge().dataset.count).toBe('0');
    const reads = inputsOf('activity.summary').length;
    act(() => {
      fake.recordRequest({ ts: Date.now() });
    });
    await act(async () => {
      vi.advanceTimersByTime(TODAY_RESYNC_MS);
    });
    await flush();
    expect(inputsOf('activity.summary').length).toBe(reads + 1);
    // The fake counts every row it holds, the old one too: the header now shows the core's figure.
    expect(badge().dataset.count).toBe('2');
  });
});
