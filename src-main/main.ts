import { startShell } from './shell/start-shell';

// Electron entry (package.json "main" → out/main/main.js). The headless entry is headless.ts.
startShell();
