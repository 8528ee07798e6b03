import { afterEach, describe, expect, it } from 'vitest';
import { createExclusionLog } from './exclusion-log';
import { ask, createIntegrityScene } from '../integrity.testkit';

const scene = createIntegrityScene();
afterEach(() => scene.cleanup());

describe('the every-target-excluded log line', () => {
  it("ROUTE-7: a plain model refused again and again is logged once per window, in Leeway's own words", async () => {
    const { ups, h } = await scene.start('anthropic', 1);
    ups[0]?.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    expect((await ask(h, 'anthropic', false)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await ask(h, 'anthropic', false)).status).toBe(503);
    const lines = h.logs.filter((l) => l.includes('excluded'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[ROUTE\] every target for "claude-sonnet-4-5" is excluded: a1=\w+:1(19|20)s$/);
  });

  it('ROUTE-7: a combo keeps the ROUTE-7 prefix, and the next line after the window counts what was held back', () => {
    const lines: string[] = [];
    const log = createExclusionLog((line) => lines.push(line), 30_000);
    log.report('main', true, ['a=unavailable:12s'], 1_000);
    log.report('main', true, ['a=unavailable:11s'], 2_000);
    log.report('main', true, ['a=unavailable:10s'], 3_000);
    log.report('other', false, ['b=cooling:5s'], 3_000);
    log.report('main', true, ['a=unavailable:1s'], 31_000);
    expect(lines).toEqual([
      '[COMBO] Weighted selection: every target excluded before dispatch — combo "main": a=unavailable:12s',
      '[ROUTE] every target for "other" is excluded: b=cooling:5s',
      '[COMBO] Weighted selection: every target excluded before dispatch — combo "main": a=unavailable:1s (2 more like this since the last line)',
    ]);
  });

  it('ROUTE-7: a model name with a newline cannot forge a second log line', () => {
    const lines: string[] = [];
    createExclusionLog((line) => lines.push(line)).report('m\n[ADMIN] fake', false, ['x=busy'], 0);
    expect(lines[0]).not.toContain('\n');
  });
});
