import type { ReactElement } from 'react';
import { startRendererCore, type RendererCore } from '../../src-main/testing/renderer-core';
import { renderOver, type Rendered } from './render-with-fake';

const open = new Set<RendererCore>();

export interface CoreRender extends Rendered {
  core: RendererCore;
}

/** The real core's handlers over `:memory:` SQLite, for a test to seed through the contract before rendering. */
export async function startCore(now?: () => number): Promise<RendererCore> {
  const core = await startRendererCore(now);
  open.add(core);
  return core;
}

/** Renders `ui` against `core` (started with startCore) with its first reads settled. */
export function renderWithCore(ui: ReactElement, core: RendererCore): Promise<CoreRender> {
  return renderOver(ui, { call: core.call, onEvent: core.onEvent }).then((view) => ({ ...view, core }));
}

/** Closes every core this file started; call it after each test. */
export function closeCores(): void {
  for (const core of open) core.close();
  open.clear();
}
