/** `npm run conformance -- …`: parse, run, print the table (or JSON); exit 1 when a check failed. */
import { runConformance, unknownChecks } from './conformance';
import { parseOptions, USAGE } from './options';
import { renderTable, summarize } from './table';

const interrupt = new AbortController();

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseOptions(argv, process.env);
  if (!parsed.ok) {
    console.error(`conformance: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const options = parsed.value;
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const unknown = unknownChecks(options.only);
  if (unknown.length > 0) {
    console.error(`conformance: no check named ${unknown.join(', ')}`);
    return 2;
  }
  // Ctrl-C: what the suite added to a Leeway is taken away before it exits.
  process.once('SIGINT', () => interrupt.abort());
  const run = await runConformance(options, (line) => console.error(line), interrupt.signal);
  if (options.json) console.log(JSON.stringify(run, null, 2));
  else console.log(`\nConformance of ${run.url}\n\n${renderTable(run.rows)}\n\n${summarize(run.rows, run.ms)}`);
  return run.rows.some((r) => r.result === 'fail') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (interrupt.signal.aborted) {
      console.error('conformance: interrupted; what it set up is taken away');
      process.exit(130);
    }
    console.error(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
