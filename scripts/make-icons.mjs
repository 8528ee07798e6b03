// Writes the app icon and tray icons as PNGs with no dependencies (zlib + CRC-32 by hand):
// build/icon.png (512x512) and build/tray/{serving,cooling,blocked,paused}.png (16x16, @2x 32x32).
// Run: node scripts/make-icons.mjs — the output is committed.
import { mkdirSync, writeFileSync } from 'node:fs';
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

function circle(size, [r, g, b], radiusRatio = 0.44) {
  return png(size, (x, y) => [r, g, b, Math.round(255 * coverage(size, size * radiusRatio, x, y))]);
}

/** App icon: a dark rounded disc with a green inner dot — "headroom available". */
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

function write(relative, data) {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  console.log(`wrote ${relative} (${data.length} bytes)`);
}

write('build/icon.png', appIcon(512));
for (const [state, colour] of Object.entries(TRAY_COLOURS)) {
  write(`build/tray/${state}.png`, circle(16, colour));
  write(`build/tray/${state}@2x.png`, circle(32, colour));
}
