import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

/**
 * Three builds (ARCHITECTURE §1): main (Electron entry + headless Node entry, ESM), the sandboxed
 * preload (CommonJS, required for sandbox: true) and the React renderer. None needs the Electron binary.
 */
export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Node 20 runs the headless entry, Electron's newer Node runs main: target the older one.
      target: 'node20.19',
      // Dependencies (better-sqlite3's native addon, undici, zod …) stay in node_modules, loaded at runtime.
      // ioredis is optional (QDRV-5): loaded at runtime when installed, never bundled.
      externalizeDeps: { include: ['ioredis'] },
      rolldownOptions: {
        input: {
          main: resolve(root, 'src-main/main.ts'),
          headless: resolve(root, 'src-main/headless.ts'),
        },
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      target: 'node20.19',
      // A sandboxed preload can only require('electron'): bundle everything else in.
      externalizeDeps: false,
      rolldownOptions: {
        input: { preload: resolve(root, 'src-main/shell/preload.ts') },
        output: {
          format: 'cjs',
          entryFileNames: '[name].cjs',
          codeSplitting: false,
        },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      rolldownOptions: {
        input: { index: resolve(root, 'src-renderer/index.html') },
      },
    },
  },
});
