import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { trayGlyphIconPath, trayIconFiles } from './tray-glyph-icons';
import { trayIconDir } from './tray-icons';
import { TRAY_STATES, type TrayState } from './tray-state';

const repo = join(import.meta.dirname, '..', '..', '..');
const dir = trayIconDir({ isPackaged: false, resourcesPath: '/nowhere', appPath: repo });

/** RGBA pixels of a PNG as make-icons.mjs writes it (8-bit RGBA, one filter-0 byte per row). */
function pixels(file: string): { size: number; rgba: Buffer } {
  const data = readFileSync(file);
  let offset = 8;
  let size = 0;
  const idat: Buffer[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('ascii', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') size = body.readUInt32BE(0);
    if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    expect(raw[row], `${file} row ${y} filter`).toBe(0);
    raw.copy(rgba, y * size * 4, row + 1, row + 1 + size * 4);
  }
  return { size, rgba };
}

const alphaOf = (file: string): number[] => {
  const { rgba } = pixels(file);
  return Array.from({ length: rgba.length / 4 }, (_, i) => rgba[i * 4 + 3] ?? 0);
};
/** Pixels whose coverage differs clearly between two masks. */
const shapeDistance = (a: number[], b: number[]): number => a.filter((v, i) => Math.abs(v - (b[i] ?? 0)) > 128).length;

describe('tray glyph icons (issue 13 §8)', () => {
  it('PROD-4: every state has a coloured glyph and a macOS template, each with its @2x', () => {
    for (const state of TRAY_STATES) {
      for (const file of trayIconFiles(state)) expect(existsSync(join(dir, file)), file).toBe(true);
      expect(pixels(join(dir, `${state}.png`)).size).toBe(16);
      expect(pixels(join(dir, `${state}Template@2x.png`)).size).toBe(32);
    }
  });

  it('PROD-4: the states differ by shape, not colour alone: every pair of template masks differs', () => {
    const masks = new Map<TrayState, number[]>(TRAY_STATES.map((s) => [s, alphaOf(join(dir, `${s}Template@2x.png`))]));
    for (const a of TRAY_STATES) {
      for (const b of TRAY_STATES) {
        if (a >= b) continue;
        // At least 5 % of the 32x32 pixels change between any two glyphs.
        expect(shapeDistance(masks.get(a) ?? [], masks.get(b) ?? []), `${a} vs ${b}`).toBeGreaterThan(51);
      }
    }
  });

  it('PROD-4: a template is black plus alpha, the same shape as the coloured glyph of its state', () => {
    for (const state of TRAY_STATES) {
      const { rgba } = pixels(join(dir, `${state}Template.png`));
      for (let i = 0; i < rgba.length; i += 4) expect([rgba[i], rgba[i + 1], rgba[i + 2]]).toEqual([0, 0, 0]);
      expect(alphaOf(join(dir, `${state}.png`))).toEqual(alphaOf(join(dir, `${state}Template.png`)));
      expect(readFileSync(join(dir, `${state}.png`)).equals(readFileSync(join(dir, `${state}Template.png`)))).toBe(
        false,
      );
    }
  });

  it('PROD-4: macOS loads the template variant, other platforms the coloured one', () => {
    expect(trayGlyphIconPath(dir, 'cooling', 'darwin')).toBe(join(dir, 'coolingTemplate.png'));
    expect(trayGlyphIconPath(dir, 'cooling', 'linux')).toBe(join(dir, 'cooling.png'));
    expect(trayGlyphIconPath(dir, 'blocked', 'win32')).toBe(join(dir, 'blocked.png'));
  });

  it('PROD-4: the committed icons are exactly what scripts/make-icons.mjs makes', () => {
    expect(() =>
      execFileSync(process.execPath, [join(repo, 'scripts', 'make-icons.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
