// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithFake } from '../../api/render-with-fake';
import { AppHeader } from './app-header';

afterEach(cleanup);

describe('storage lost banner', () => {
  it('ISSUE-8 shows a banner naming the lost data directory when the core reports storage.lost', async () => {
    const { fake } = await renderWithFake(<AppHeader />);
    expect(screen.queryByText(/lost its data directory/)).toBeNull();
    const message = '/tmp/hr was deleted; nothing is saved any more; restart Leeway';
    act(() => fake.emit({ type: 'storage.lost', payload: { dataDir: '/tmp/hr', message } }));
    const banner = screen.getByText(/lost its data directory/).closest('[role="alert"]');
    expect(banner?.textContent).toContain(message);
  });
});
