// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComboView } from '../../../src-shared/domain/combo';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { RoutesTab } from './routes-tab';

afterEach(cleanup);

const combo = (name: string): ComboView => ({
  id: `b-${name}`,
  name,
  targets: [{ connection: 'max-1', model: null }],
  strategy: 'priority',
  createdAt: 0,
  updatedAt: 0,
});
const seed = {
  connections: [fakeConnection('max-1', { models: ['claude-opus-4-8'] })],
  combos: [combo('main'), combo('cheap')],
};
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('routes tab', () => {
  it('ISSUE9-ROUTES: explains first-match-wins and the Claude Code recipe, and saves the recipe as the ordered list', async () => {
    const { inputsOf, fake } = await renderWithFake(<RoutesTab />, { seed });
    expect(screen.getByText('The first matching route wins')).toBeTruthy();
    expect(screen.getByText(/^Claude Code recipe:/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start from the Claude Code recipe' }));
    expect(field('Route 1 match').value).toBe('*haiku*');
    expect(field('Route 2 to').value).toBe('main');
    fireEvent.click(screen.getByRole('button', { name: 'Save routes' }));
    await flush();
    expect(inputsOf('routes.replace')).toEqual([
      {
        routes: [
          { match: '*haiku*', to: 'cheap' },
          { match: '*', to: 'main' },
        ],
      },
    ]);
    expect(fake.state.routes).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toBe('Saved.');
  });

  it('ISSUE9-ROUTES: adds, moves and removes rows, and the saved order is the order on screen', async () => {
    const { inputsOf } = await renderWithFake(<RoutesTab />, {
      seed: { ...seed, routes: [{ match: '*', to: 'main' }] },
    });
    expect(field('Route 1 match').value).toBe('*');
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }));
    expect(document.activeElement).toBe(field('Route 2 match'));
    fireEvent.change(field('Route 2 match'), { target: { value: 'claude-opus-*' } });
    fireEvent.change(field('Route 2 to'), { target: { value: 'max-1/claude-opus-4-8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move route 2 up' }));
    expect(field('Route 1 match').value).toBe('claude-opus-*');
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove route 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save routes' }));
    await flush();
    expect(inputsOf('routes.replace')).toEqual([
      {
        routes: [
          { match: 'claude-opus-*', to: 'max-1/claude-opus-4-8' },
          { match: '*', to: 'main' },
        ],
      },
    ]);
  });

  it('ISSUE9-ROUTES: an empty pattern, an unknown target and a route after the catch-all are shown inline and not sent', async () => {
    const { inputsOf } = await renderWithFake(<RoutesTab />, {
      seed: { ...seed, routes: [{ match: '*', to: 'main' }] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }));
    fireEvent.change(field('Route 2 to'), { target: { value: 'cheap' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save routes' }));
    await flush();
    expect(inputsOf('routes.replace')).toEqual([]);
    expect(field('Route 2 match').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Route 2 match'));
    fireEvent.change(field('Route 2 match'), { target: { value: '*haiku*' } });
    fireEvent.change(field('Route 2 to'), { target: { value: 'nowhere' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save routes' }));
    await flush();
    expect(inputsOf('routes.replace')).toEqual([]);
    const row = field('Route 2 match').closest('li');
    if (!row) throw new Error('no row');
    expect(within(row).getByText(/is unreachable: route 1 \("\*"\) matches every model first/)).toBeTruthy();
    expect(within(row).getByText(/"nowhere" is not a combo/)).toBeTruthy();
  });

  it('ISSUE9-ROUTES: a list saved in another window replaces the one shown', async () => {
    const { fake } = await renderWithFake(<RoutesTab />, { seed });
    fake.emit({ type: 'routes.changed', payload: { routes: [{ match: 'gpt-*', to: 'main' }] } });
    await flush();
    expect(field('Route 1 match').value).toBe('gpt-*');
  });
});
