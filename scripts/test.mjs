// `npm test`: the vitest suites (unit, integration, real clients, components), then the e2e suite in
// Debian Chromium when one is installed. The last line is always `N passed, N failed[, N skipped]`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIfStale, root } from './lib/build.mjs';

const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const reportDir = mkdtempSync(path.join(tmpdir(), 'leeway-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
// Each failure, named again just above the summary line: CI shows only the tail of a long run.
const failures = [];

/** The first line of a failure message, short enough to read in a CI excerpt. */
function firstLine(message) {
  const line =
    String(message ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 240 ? `${line.slice(0, 240)}…` : line;
}

/** Counts from a vitest JSON report; a file that failed to load or crash counts as one failure. */
function tally(name, reportFile, exitCode) {
  if (!existsSync(reportFile)) {
    console.error(`${name}: vitest wrote no report (exit code ${exitCode}); counting it as a failure.`);
    totals.failed += 1;
    failures.push(`${name}: vitest wrote no report (exit code ${exitCode})`);
    return;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
  for (const file of brokenFiles) {
    const line = `${name}: ${path.relative(root, file.name)} failed outside a test: ${firstLine(file.message)}`;
    console.error(line);
    failures.push(line);
  }
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      const cause = firstLine(test.failureMessages?.[0]);
      failures.push(`${name}: ${path.relative(root, file.name)} > ${test.fullName}${cause ? ` — ${cause}` : ''}`);
    }
  }
  let failed = report.numFailedTests + brokenFiles.length;
  if (exitCode !== 0 && failed === 0) {
    console.error(
      `${name}: vitest exited with code ${exitCode} without a failed test (unhandled error?); counting one failure.`,
    );
    failed = 1;
    failures.push(`${name}: vitest exited with code ${exitCode} without a failed test`);
  }
  totals.passed += report.numPassedTests;
  totals.failed += failed;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function runVitest(name, extraArgs, env = process.env) {
  const reportFile = path.join(reportDir, `${name}.json`);
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(
    process.execPath,
    [vitestBin, 'run', '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`, ...extraArgs],
    { cwd: root, stdio: 'inherit', env },
  );
  tally(name, reportFile, result.status ?? 1);
}

/**
 * Suites written for `node --test` (TEST-12 asks for `node --import tsx/esm --test tests/unit/…`):
 * run the same way, counted from their TAP summary.
 */
function runNodeTests(name, dir) {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return;
  const files = readdirSync(abs)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
  if (files.length === 0) return;
  const tapFile = path.join(reportDir, `${name}.tap`);
  console.log(`\n=== ${name} (node --test) ===`);
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx/esm',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
  const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  const passed = count('pass');
  let failed = count('fail') + count('cancelled');
  for (const match of tap.matchAll(/^\s*not ok \d+ - (.*)$/gm)) failures.push(`${name}: ${match[1]}`);
  if ((result.status ?? 1) !== 0 && failed === 0) {
    console.error(
      `${name}: node --test exited with code ${result.status} without a failed test; counting one failure.`,
    );
    failed = 1;
    failures.push(`${name}: node --test exited with code ${result.status} without a failed test`);
  }
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += count('skipped') + count('todo');
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean);
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

function hasE2eTests(dir = path.join(root, 'e2e')) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? entry.name !== 'artifacts' && entry.name !== 'node_modules' && hasE2eTests(path.join(dir, entry.name))
      : entry.name.endsWith('.e2e.test.ts'),
  );
}

// Extra arguments (`npm test -- src-main/proxy`) narrow the vitest run.
runVitest('unit', process.argv.slice(2));
// Latency under load is measured alone, so the other suites' workers do not share the two cores.
if (process.argv.length <= 2) runVitest('timing', [], { ...process.env, TIMING: '1' });
if (process.argv.length <= 2) runNodeTests('node-test', 'tests/unit');
// TEST-2: heap growth needs a real full GC between measurements (skipped, saying so, in the unit run).
if (process.argv.length <= 2)
  runVitest(
    'heap',
    [
      'src-main/testing/chaos/heap-growth.test.ts',
      'src-main/routing/strategies/strategy-store-retention.test.ts',
      'src-main/proxy/request-signal-retention.test.ts',
    ],
    { ...process.env, NODE_OPTIONS: '--expose-gc' },
  );

const chromium = findChromium();
if (!chromium) {
  console.log('\ne2e: skipped — no Chromium found (install Debian chromium or set CHROMIUM_PATH)');
} else if (!hasE2eTests()) {
  console.log('\ne2e: skipped — no e2e/**/*.e2e.test.ts files yet');
} else if (!buildIfStale()) {
  console.error('e2e: the build failed; counting one failure.');
  totals.failed += 1;
  failures.push('e2e: the build failed');
} else {
  runVitest('e2e', ['--config', 'vitest.e2e.config.ts'], { ...process.env, CHROMIUM_PATH: chromium });
}

rmSync(reportDir, { recursive: true, force: true });
if (totals.passed + totals.failed === 0) console.error('No test ran.');
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const line of failures) console.log(`  ${line}`);
}
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || totals.passed + totals.failed === 0 ? 1 : 0);
