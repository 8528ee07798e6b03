// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_OK, type StorageStatus } from '../../../src-shared/domain/storage-status';
import { FAKE_INFO } from '../../testing/fake-state';
import { renderWithFake } from '../../testing/render-with-fake';
import { AppHeader } from './app-header';

afterEach(cleanup);

const FULL: StorageStatus = {
  ok: false,
  error: 'the disk is full (SQLITE_FULL)',
  code: 'SQLITE_FULL',
  since: Date.UTC(2025, 0, 1, 12, 0, 0),
  heldRows: 42,
  droppedRows: 0,
};

describe('storage banner', () => {
  it('ISSUE-8 shows a banner naming the lost data directory when the core reports storage.lost', async () => {
    const { fake } = await renderWithFake(<AppHeader />);
    expect(screen.queryByText(/lost its data directory/)).toBeNull();
    const message = '/tmp/hr was deleted; nothing is saved any more; restart Leeway';
    act(() => fake.emit({ type: 'storage.lost', payload: { dataDir: '/tmp/hr', message } }));
    const banner = screen.getByText(/lost its data directory/).closest('[role="alert"]');
    expect(banner?.textContent).toContain(message);
  });

  it('issue 21 §16: a storage.changed event that says writes fail shows a banner with the cause, the rows held and that requests are still served; it goes when storage recovers', async () => {
    const { fake } = await renderWithFake(<AppHeader />);
    expect(screen.queryByText(/cannot save/)).toBeNull();
    act(() => fake.emit({ type: 'storage.changed', payload: { storage: FULL } }));
    const banner = screen.getByText(/cannot save to its data directory/).closest('[role="alert"]');
    expect(banner?.textContent).toContain('the disk is full (SQLITE_FULL)');
    expect(banner?.textContent).toContain('42 activity rows wait in memory');
    expect(banner?.textContent).toContain('Requests are still served');
    act(() => fake.emit({ type: 'storage.changed', payload: { storage: STORAGE_OK } }));
    expect(screen.queryByText(/cannot save/)).toBeNull();
  });

  it('issue 21 §16: a dashboard opened while storage fails shows the banner from app.info; rows dropped meanwhile are said after recovery until dismissed', async () => {
    const { fake } = await renderWithFake(<AppHeader />, { seed: { info: { ...FAKE_INFO, storage: FULL } } });
    expect(screen.getByRole('alert').textContent).toContain('the disk is full');
    act(() => fake.emit({ type: 'storage.changed', payload: { storage: { ...STORAGE_OK, droppedRows: 120 } } }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('120 activity rows were dropped');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/were dropped/)).toBeNull();
  });
});
