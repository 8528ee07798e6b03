// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { COMBO_STRATEGIES } from '../../../src-shared/domain/combo';
import { STRATEGY_TEXT } from './combo-strategy-field';
import { CombosTab } from './combos-tab';

afterEach(cleanup);

const connections = [
  fakeConnection('anthropic-work', { models: ['claude-sonnet-4-5', 'claude-opus-4-1'] }),
  fakeConnection('openai-home', { kind: 'openai', models: ['gpt-4.1'] }),
];
const dialog = () => within(screen.getByRole('dialog'));
const select = (label: string) => dialog().getByLabelText(label) as HTMLSelectElement;
const input = (label: string) => dialog().getByLabelText(label) as HTMLInputElement;

describe('combos', () => {
  it('PROD-8 the combo editor creates a combo with a pinned model, in the order the user set', async () => {
    const { inputsOf, fake } = await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'Create your first combo' }));
    expect(document.activeElement).toBe(input('Name'));
    fireEvent.change(input('Name'), { target: { value: 'coding' } });
    expect(select('Target 1 connection').value).toBe('anthropic-work');
    fireEvent.change(input('Target 1 model (optional)'), { target: { value: 'claude-opus-4-1' } });

    fireEvent.click(dialog().getByRole('button', { name: 'Add target' }));
    expect(document.activeElement).toBe(select('Target 2 connection'));
    fireEvent.change(select('Target 2 connection'), { target: { value: 'openai-home' } });
    const down = dialog().getByRole('button', { name: 'Move target 1 down' });
    fireEvent.click(down);
    expect(select('Target 1 connection').value).toBe('openai-home');
    expect(input('Target 2 model (optional)').value).toBe('claude-opus-4-1');
    // Focus follows the moved row; at the bottom its "down" is disabled, so "up" takes it.
    expect(document.activeElement).toBe(dialog().getByRole('button', { name: 'Move target 2 up' }));

    fireEvent.click(dialog().getByRole('button', { name: 'Create combo' }));
    await flush();
    expect(inputsOf('combos.upsert')).toEqual([
      {
        name: 'coding',
        targets: [
          { connection: 'openai-home', model: null },
          { connection: 'anthropic-work', model: 'claude-opus-4-1' },
        ],
        strategy: 'priority',
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.state.combos[0]?.targets[1]).toEqual({ connection: 'anthropic-work', model: 'claude-opus-4-1' });
    const list = screen.getByRole('table');
    expect(within(list).getByText('coding')).toBeTruthy();
    expect(within(list).getByText('· claude-opus-4-1')).toBeTruthy();
  });

  it('PROD-8 shows what is wrong inline: a missing name and a combo without targets are not sent', async () => {
    const { inputsOf } = await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'New combo' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Remove target 1' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Create combo' }));
    await flush();
    expect(inputsOf('combos.upsert')).toHaveLength(0);
    const name = input('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
      'is required',
    );
    expect(dialog().getByText('needs at least one target')).toBeTruthy();
    expect(document.activeElement).toBe(name);
  });

  it('PROD-8 edits a combo’s targets and removes a combo after confirmation', async () => {
    const combo = {
      id: 'b1',
      name: 'coding',
      targets: [{ connection: 'anthropic-work', model: null }],
      strategy: 'round-robin' as const,
      createdAt: 0,
      updatedAt: 0,
    };
    const { inputsOf } = await renderWithFake(<CombosTab />, { seed: { connections, combos: [combo] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit coding' }));
    expect(input('Name').readOnly).toBe(false);
    fireEvent.change(input('Target 1 model (optional)'), { target: { value: 'claude-sonnet-4-5' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(inputsOf('combos.upsert').at(-1)).toEqual({
      name: 'coding',
      targets: [{ connection: 'anthropic-work', model: 'claude-sonnet-4-5' }],
      strategy: 'round-robin',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(inputsOf('combos.remove')).toHaveLength(0);
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Remove coding?' })).getByRole('button', { name: 'Remove' }),
    );
    await flush();
    expect(inputsOf('combos.remove')).toEqual([{ name: 'coding' }]);
    expect(screen.getByText('No combos yet')).toBeTruthy();
  });

  it('ISSUE9-STRATEGY: the strategy select explains the chosen strategy in one sentence and sends it; the list shows it', async () => {
    const { inputsOf } = await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'Create your first combo' }));
    fireEvent.change(input('Name'), { target: { value: 'spread' } });
    const strategy = select('Strategy');
    expect(strategy.value).toBe('priority');
    const hint = () => document.getElementById('combo-strategy-hint')?.textContent ?? '';
    expect(hint()).toMatch(/^Every request tries the targets in the listed order/);
    fireEvent.change(strategy, { target: { value: 'round-robin' } });
    expect(hint()).toMatch(/^Each new session goes to the target picked least recently/);
    fireEvent.click(dialog().getByRole('button', { name: 'Create combo' }));
    await flush();
    expect(inputsOf('combos.upsert')).toEqual([
      { name: 'spread', targets: [{ connection: 'anthropic-work', model: null }], strategy: 'round-robin' },
    ]);
    expect(within(screen.getByRole('table')).getByText('Round-robin')).toBeTruthy();
  });

  it('ROUTE-1: the picker offers the 19 public strategies (never quota-share), each explained in one sentence', async () => {
    await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'Create your first combo' }));
    const strategy = select('Strategy');
    const offered = [...strategy.options].map((o) => o.value);
    expect(offered).toEqual([...COMBO_STRATEGIES]);
    expect(offered).toHaveLength(19);
    expect(offered).not.toContain('quota-share');
    const hint = () => document.getElementById('combo-strategy-hint')?.textContent ?? '';
    const seen = new Set<string>();
    for (const s of COMBO_STRATEGIES) {
      fireEvent.change(strategy, { target: { value: s } });
      expect(hint()).toBe(STRATEGY_TEXT[s].explanation);
      // One sentence: ends with a full stop and no second sentence starts inside.
      expect(hint()).toMatch(/\.$/);
      expect(hint()).not.toMatch(/[.!?]\s+[A-Z]/);
      seen.add(hint());
    }
    expect(seen.size).toBe(19);
  });

  it('ROUTE-1: weighted shows a weight per target and sends it; other strategies show none', async () => {
    const { inputsOf } = await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'Create your first combo' }));
    fireEvent.change(input('Name'), { target: { value: 'split' } });
    expect(dialog().queryByLabelText('Target 1 weight (1–100)')).toBeNull();
    fireEvent.change(select('Strategy'), { target: { value: 'weighted' } });
    fireEvent.change(input('Target 1 weight (1–100)'), { target: { value: '70' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Add target' }));
    fireEvent.change(select('Target 2 connection'), { target: { value: 'openai-home' } });
    fireEvent.change(input('Target 2 weight (1–100)'), { target: { value: '30' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Create combo' }));
    await flush();
    expect(inputsOf('combos.upsert')).toEqual([
      {
        name: 'split',
        strategy: 'weighted',
        targets: [
          { connection: 'anthropic-work', model: null, weight: 70 },
          { connection: 'openai-home', model: null, weight: 30 },
        ],
      },
    ]);
  });

  it('ROUTE-1: a weight outside 1..100 is shown at its row and nothing is sent', async () => {
    const { inputsOf } = await renderWithFake(<CombosTab />, { seed: { connections } });
    fireEvent.click(screen.getByRole('button', { name: 'Create your first combo' }));
    fireEvent.change(input('Name'), { target: { value: 'split' } });
    fireEvent.change(select('Strategy'), { target: { value: 'weighted' } });
    fireEvent.change(input('Target 1 weight (1–100)'), { target: { value: '500' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Create combo' }));
    await flush();
    expect(inputsOf('combos.upsert')).toHaveLength(0);
    expect(dialog().getByText(/100/, { selector: '.field-error' })).toBeTruthy();
  });

  it('PROD-8 with no connections, the empty state sends the user to the Connections tab first', async () => {
    await renderWithFake(<CombosTab />);
    expect(screen.getByRole('link', { name: 'Connections' }).getAttribute('href')).toBe('#connections');
    expect((screen.getByRole('button', { name: 'New combo' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
