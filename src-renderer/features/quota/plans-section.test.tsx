// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuotaPlanView } from '../../../src-shared/domain/quota';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { PlansSection } from './plans-section';

afterEach(cleanup);

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });

const kimi: QuotaPlanView = {
  connection: 'kimi-1',
  catalogProvider: 'kimi',
  source: 'catalog',
  dimensions: [{ unit: 'requests', window: 'hourly', limit: 1500 }],
  catalogDimensions: [{ unit: 'requests', window: 'hourly', limit: 1500 }],
};

const none: QuotaPlanView = {
  connection: 'max-1',
  catalogProvider: null,
  source: 'none',
  dimensions: [],
  catalogDimensions: [],
};

const seed = { connections: [fakeConnection('kimi-1'), fakeConnection('max-1')], quotaPlans: [kimi, none] };
const planForm = (connection: string): HTMLElement => screen.getByRole('form', { name: `Plan of ${connection}` });

describe('plans', () => {
  it('QUI-13: pick a connection and see its effective plan and where it comes from', async () => {
    await renderWithFake(<PlansSection />, { seed });
    expect(within(planForm('kimi-1')).getByText('from the built-in catalog')).toBeTruthy();
    expect(within(planForm('kimi-1')).getByText(/Catalog entry: kimi/)).toBeTruthy();
    expect((within(planForm('kimi-1')).getByLabelText('Limit') as HTMLInputElement).value).toBe('1500');
    type(screen.getByLabelText('Connection'), 'max-1');
    expect(within(planForm('max-1')).getByText('no plan — set one by hand')).toBeTruthy();
    expect((within(planForm('max-1')).getByLabelText('Limit') as HTMLInputElement).value).toBe('');
  });

  it('QUI-14: edited dimensions are saved with quota.setPlan and become a manual override', async () => {
    const { inputsOf } = await renderWithFake(<PlansSection />, { seed });
    type(within(planForm('kimi-1')).getByLabelText('Limit'), '1000');
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Add dimension' }));
    const second = within(planForm('kimi-1')).getByRole('group', { name: 'Dimension 2' });
    type(within(second).getByLabelText('Unit'), 'tokens');
    type(within(second).getByLabelText('Window'), 'daily');
    type(within(second).getByLabelText('Limit'), '2000000');
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Save plan' }));
    await flush();
    expect(inputsOf('quota.setPlan')).toEqual([
      {
        connection: 'kimi-1',
        dimensions: [
          { unit: 'requests', window: 'hourly', limit: 1000 },
          { unit: 'tokens', window: 'daily', limit: 2_000_000 },
        ],
      },
    ]);
    expect(within(planForm('kimi-1')).getByText('manual override')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Saved as a manual override.');
  });

  it('QUI-14: a plan needs a dimension and valid limits; the schema says so at the field', async () => {
    const { inputsOf } = await renderWithFake(<PlansSection />, { seed });
    type(within(planForm('kimi-1')).getByLabelText('Unit'), 'percent');
    type(within(planForm('kimi-1')).getByLabelText('Limit'), '150');
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Save plan' }));
    await flush();
    expect(within(planForm('kimi-1')).getByText('a percent limit is at most 100')).toBeTruthy();
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Remove dimension 1' }));
    fireEvent.click(within(planForm('kimi-1')).getByRole('button', { name: 'Save plan' }));
    await flush();
    expect(within(planForm('kimi-1')).getByText('needs at least one dimension')).toBeTruthy();
    expect(inputsOf('quota.setPlan')).toEqual([]);
  });
});
