// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { connectionInput, seed } from '../../testing/seed-core.real';
import { CreatePoolModal } from './create-pool-modal';
import { LEGACY_POOLS_KEY } from './legacy-migration';
import { PlansSection } from './plans-section';
import { QuotaTab } from './quota-tab';

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  closeCores();
});

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });
const group = (name: string): HTMLElement => screen.getByRole('group', { name });
const errorOf = (el: HTMLElement): string | null => {
  const id = el.getAttribute('aria-describedby')?.split(' ')[0];
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};
const planForm = (connection: string): HTMLElement => screen.getByRole('form', { name: `Plan of ${connection}` });

/** max-1 (no catalog plan), kimi-1 (the catalog's Moonshot plan), and the keys alice and bob. */
async function quotaCore() {
  const core = await startCore();
  await seed(core, 'connections.upsert', connectionInput('max-1'));
  await seed(core, 'connections.upsert', {
    name: 'kimi-1',
    kind: 'openai-compatible',
    baseUrl: 'https://api.moonshot.ai/v1',
    secret: { type: 'api-key', apiKey: 'sk-moonshot-abcdefghijkl' },
  });
  const alice = await seed(core, 'keys.create', { name: 'alice' });
  const bob = await seed(core, 'keys.create', { name: 'bob' });
  return { core, alice: alice.key, bob: bob.key };
}

describe('quota pools and plans, against the real handlers', () => {
  it('QUI-3: the core’s refusal of a key revoked meanwhile lands on that allocation row', async () => {
    const { core, bob } = await quotaCore();
    let closed = 0;
    const { inputsOf } = await renderWithCore(<CreatePoolModal onClose={() => closed++} />, core);
    type(screen.getByLabelText('Name'), 'team');
    fireEvent.click(screen.getByLabelText('max-1'));
    type(within(group('Dimension 1')).getByLabelText('Limit'), '20');
    const fill = (index: number, key: string) => {
      type(within(group(`Allocation ${index}`)).getByLabelText('Key'), key);
      type(within(group(`Allocation ${index}`)).getByLabelText('Weight %'), '50');
    };
    fill(1, 'alice');
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }));
    fill(2, 'bob');
    await seed(core, 'keys.revoke', { id: bob.id });
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toHaveLength(1);
    const bobKey = within(group('Allocation 2')).getByLabelText('Key');
    expect(bobKey.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(bobKey)).toMatch(/bob/);
    expect(closed).toBe(0);
    expect(await seed(core, 'quota.listPools', undefined)).toEqual([]);
  });

  it('QUI-11: legacy pools in localStorage are sent once when the core has none, then the key is deleted', async () => {
    const { core } = await quotaCore();
    const legacy = [
      {
        name: 'legacy-team',
        connection: 'max-1',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 100 }],
        allocations: [{ key: 'alice', weight: 100, policy: 'hard' }],
      },
      { name: 'legacy-broken', connection: 'gone', allocations: [{ key: 'alice' }] },
    ];
    window.localStorage.setItem(LEGACY_POOLS_KEY, JSON.stringify(legacy));
    const first = await renderWithCore(<QuotaTab />, core);
    await flush();
    expect(first.inputsOf('quota.upsertPool')).toEqual(legacy);
    expect(window.localStorage.getItem(LEGACY_POOLS_KEY)).toBeNull();
    expect(screen.getByRole('article', { name: 'legacy-team' })).toBeTruthy();
    expect(screen.getByText(/Imported 1 pool/).textContent).toMatch(
      /Imported 1 pool.*legacy-team.*Could not import legacy-broken/s,
    );
    first.unmount();

    // The key is back (another tab wrote it) but the core now has a pool: nothing is sent again.
    window.localStorage.setItem(LEGACY_POOLS_KEY, JSON.stringify(legacy));
    const second = await renderWithCore(<QuotaTab />, core);
    expect(second.inputsOf('quota.upsertPool')).toEqual([]);
    expect(window.localStorage.getItem(LEGACY_POOLS_KEY)).not.toBeNull();
  });

  it('QUI-15: removing the override falls back to the catalog plan', async () => {
    const { core } = await quotaCore();
    await seed(core, 'quota.setPlan', {
      connection: 'kimi-1',
      dimensions: [{ unit: 'requests', window: 'hourly', limit: 10 }],
    });
    const { inputsOf } = await renderWithCore(<PlansSection />, core);
    type(screen.getByLabelText('Connection'), 'kimi-1');
    expect((within(planForm('kimi-1')).getByLabelText('Limit') as HTMLInputElement).value).toBe('10');
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Remove override' }));
    await flush();
    expect(inputsOf('quota.removePlan')).toEqual([{ connection: 'kimi-1' }]);
    expect(within(planForm('kimi-1')).getByText('from the built-in catalog')).toBeTruthy();
    expect((within(planForm('kimi-1')).getByLabelText('Limit') as HTMLInputElement).value).toBe('1500');
    expect(within(planForm('kimi-1')).queryByRole('button', { name: 'Remove override' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Override removed: the catalog plan applies again.');
  });

  it('QUI-15: without a catalog entry, removing the override leaves no plan', async () => {
    const { core } = await quotaCore();
    await seed(core, 'quota.setPlan', {
      connection: 'max-1',
      dimensions: [{ unit: 'tokens', window: '5h', limit: 100 }],
    });
    await renderWithCore(<PlansSection />, core);
    type(screen.getByLabelText('Connection'), 'max-1');
    fireEvent.click(within(planForm('max-1')).getByRole('button', { name: 'Remove override' }));
    await flush();
    expect(within(planForm('max-1')).getByText('no plan — set one by hand')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Override removed: this connection has no plan now.');
  });
});
