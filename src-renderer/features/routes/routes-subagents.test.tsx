// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComboView } from '../../../src-shared/domain/combo';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { RoutesTab } from './routes-tab';

afterEach(cleanup);

const main: ComboView = {
  id: 'b-main',
  name: 'main',
  targets: [{ connection: 'max-1', model: null }],
  strategy: 'round-robin',
  createdAt: 0,
  updatedAt: 0,
};
const seed = { connections: [fakeConnection('max-1')], combos: [main] };
const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;

describe('routes tab: Claude Code subagents (issue 23 §3)', () => {
  it('ISSUE-23: a route shares by default, shows a stored spread, and saves the choice (share as no option)', async () => {
    const { inputsOf } = await renderWithFake(<RoutesTab />, {
      seed: {
        ...seed,
        routes: [
          { match: '*opus*', to: 'main', subagents: 'spread' as const },
          { match: '*', to: 'main' },
        ],
      },
    });
    expect(select('Route 1 subagents').value).toBe('spread');
    expect(select('Route 2 subagents').value).toBe('share');
    expect((screen.getByRole('button', { name: 'Save routes' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(select('Route 1 subagents'), { target: { value: 'share' } });
    fireEvent.change(select('Route 2 subagents'), { target: { value: 'spread' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save routes' }));
    await flush();
    expect(inputsOf('routes.replace')).toEqual([
      {
        routes: [
          { match: '*opus*', to: 'main' },
          { match: '*', to: 'main', subagents: 'spread' },
        ],
      },
    ]);
  });
});
