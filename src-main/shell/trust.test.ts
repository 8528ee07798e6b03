import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './trust';

const ours = { webContentsId: 7, frameUrl: 'file:///app/out/renderer/index.html#/connections', isMainFrame: true };

describe('isTrustedSender', () => {
  it('PROD-8: accepts the main frame of our window showing the bundled renderer', () => {
    expect(isTrustedSender(ours, 7)).toBe(true);
  });

  it('PROD-18: refuses other windows, iframes, remote pages and calls before the window exists', () => {
    expect(isTrustedSender({ ...ours, webContentsId: 8 }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, isMainFrame: false }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'https://evil.example/' }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: null }, 7)).toBe(false);
    expect(isTrustedSender(ours, null)).toBe(false);
  });
});
