#!/usr/bin/env node
// `leeway`, the command `npm install -g` puts on PATH (package.json "bin"). Runs the headless
// proxy + web dashboard (`leeway start`), Claude Code through it (`leeway claude`), the conformance
// suite against it or any gateway (`leeway conformance`), or stops it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runClaudeCommand } from './claude.mjs';
import { runConformanceCommand } from './conformance.mjs';
import { headlessArgs, LauncherError, root } from './entry.mjs';
import { helpText } from './help.mjs';
import { stopRunning } from './instance.mjs';
import { exitCodeOf, spawnSupervised } from './supervise.mjs';

const USAGE_ERROR = 2;
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

/** The headless entry in the foreground, with the user's flags; its exit code is ours. */
async function start(flags) {
  // Each stop signal sent to this command (a Ctrl-C, a kill) reaches the child once (supervise.mjs).
  const child = spawnSupervised(process.execPath, [...(await headlessArgs(process.env)), ...flags], { lifeline: true });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(exitCodeOf(code, signal))));
}

async function stop() {
  const result = await stopRunning(process.env);
  console.log(
    result.stopped
      ? `Leeway (pid ${result.pid}) stopped (data: ${result.dataDir})`
      : `Leeway is not running on ${result.dataDir}`,
  );
  return 0;
}

async function main(argv) {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-v':
    case 'version':
      console.log(`Leeway ${version}`);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      console.log(helpText(version));
      return 0;
    case 'claude':
      return runClaudeCommand(rest, process.env);
    case 'conformance':
      return runConformanceCommand(rest, process.env);
    case 'stop':
      return stop();
    case 'start':
      return start(rest);
    case undefined:
      return start([]);
    default:
      if (command.startsWith('-')) return start(argv);
      console.error(`Leeway: unknown command "${command}" (see leeway --help)`);
      return USAGE_ERROR;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Leeway: ${error instanceof LauncherError ? error.message : (error?.stack ?? String(error))}`);
    process.exit(1);
  },
);
