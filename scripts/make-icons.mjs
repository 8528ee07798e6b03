// Writes the app icon and tray icons as PNGs with no dependencies (zlib + CRC-32 by hand):
// build/icon.png (512x512) and, per tray state (serving, cooling, blocked, paused), a glyph that
// says the state by its shape, not its colour alone (issue 13 §8): build/tray/<state>.png in the
// state's colour (Linux, Windows) and build/tray/<state>Template.png in black on transparent, which
// macOS treats as a template image (tinted for light and dark menu bars); each 16x16 with a @2x 32x32.
// Run: node scripts/make-icons.mjs — the output is committed. `--check` writes nothing and exits 1
// when a committed file differs from what this script makes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes RGBA pixels (`pixel(x, y) -> [r, g, b, a]`) as a PNG. */
function png(size, pixel) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Anti-aliased coverage of a disc of `radius` centred in a `size` square, sampled 4x4 per pixel. */
function coverage(size, radius, x, y) {
  const centre = size / 2;
  let inside = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      const dx = x + (sx + 0.5) / 4 - centre;
      const dy = y + (sy + 0.5) / 4 - centre;
      if (dx * dx + dy * dy <= radius * radius) inside++;
    }
  }
  return inside / 16;
}

/** Anti-aliased coverage of a shape given as `inside(u, v)` over the unit square, sampled 4x4 per pixel. */
function shapeCoverage(size, inside, x, y) {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      if (inside((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size)) hits++;
    }
  }
  return hits / 16;
}

const dist = (u, v) => Math.hypot(u - 0.5, v - 0.5);
const ring = (u, v) => dist(u, v) <= 0.46 && dist(u, v) >= 0.33;
/** Distance from (u, v) to the segment (ax, ay)–(bx, by). */
function toSegment(u, v, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((u - ax) * dx + (v - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(u - (ax + t * dx), v - (ay + t * dy));
}

/**
 * One glyph per tray state, told apart by shape: serving a solid disc, cooling a clock (a ring with
 * two hands: waiting it out), blocked a ring crossed by a bar (no entry), paused two bars.
 */
const GLYPHS = {
  serving: (u, v) => dist(u, v) <= 0.42,
  cooling: (u, v) =>
    ring(u, v) || toSegment(u, v, 0.5, 0.5, 0.5, 0.24) <= 0.06 || toSegment(u, v, 0.5, 0.5, 0.7, 0.5) <= 0.06,
  blocked: (u, v) => ring(u, v) || (dist(u, v) <= 0.4 && toSegment(u, v, 0.24, 0.76, 0.76, 0.24) <= 0.07),
  paused: (u, v) => v >= 0.18 && v <= 0.82 && ((u >= 0.22 && u <= 0.42) || (u >= 0.58 && u <= 0.78)),
};

function glyph(size, inside, [r, g, b]) {
  return png(size, (x, y) => [r, g, b, Math.round(255 * shapeCoverage(size, inside, x, y))]);
}

/** App icon: a dark rounded disc with a green inner dot — "leeway available". */
function appIcon(size) {
  return png(size, (x, y) => {
    const outer = coverage(size, size * 0.46, x, y);
    const inner = coverage(size, size * 0.2, x, y);
    const bg = [30, 41, 59];
    const dot = [34, 197, 94];
    const mix = (i) => Math.round(bg[i] * (1 - inner) + dot[i] * inner);
    return [mix(0), mix(1), mix(2), Math.round(255 * outer)];
  });
}

const TRAY_COLOURS = {
  serving: [34, 197, 94], // green
  cooling: [245, 158, 11], // amber
  blocked: [239, 68, 68], // red
  paused: [148, 163, 184], // grey
};

/** Every output file and its bytes, made in memory. */
function outputs() {
  const files = [['build/icon.png', appIcon(512)]];
  for (const [state, colour] of Object.entries(TRAY_COLOURS)) {
    const inside = GLYPHS[state];
    files.push([`build/tray/${state}.png`, glyph(16, inside, colour)]);
    files.push([`build/tray/${state}@2x.png`, glyph(32, inside, colour)]);
    // macOS template images: black plus alpha only; the OS tints them for the menu bar.
    files.push([`build/tray/${state}Template.png`, glyph(16, inside, [0, 0, 0])]);
    files.push([`build/tray/${state}Template@2x.png`, glyph(32, inside, [0, 0, 0])]);
  }
  return files;
}

if (process.argv.includes('--check')) {
  const stale = outputs().filter(([relative, data]) => {
    const file = path.join(root, relative);
    return !existsSync(file) || !readFileSync(file).equals(data);
  });
  for (const [relative] of stale) console.error(`out of date: ${relative} (run node scripts/make-icons.mjs)`);
  process.exit(stale.length === 0 ? 0 : 1);
}

for (const [relative, data] of outputs()) {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  console.log(`wrote ${relative} (${data.length} bytes)`);
}
