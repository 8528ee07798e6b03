/**
 * The benchmark's upstream, in its own process (`node --import tsx scripts/bench/upstream-child.ts`):
 * the fake Anthropic API answering every request `ok`, with a 50-delta text so a streamed answer
 * is a 50-event stream. Prints `READY <origin>`; exits when its stdin closes or on SIGTERM.
 */
import { startFakeUpstream } from '../../src-main/testing/fake-upstream';
import { STREAM_DELTAS } from './shared';

async function main(): Promise<void> {
  const upstream = await startFakeUpstream({ format: 'anthropic', name: 'bench' });
  // ≥ 50 characters, so splitText really cuts it into 50 deltas; a non-stream answer stays < 1 KB.
  const text = Array.from({ length: STREAM_DELTAS }, (_, i) => `t${i} `).join('');
  upstream.setDefault({ kind: 'ok', text, deltas: STREAM_DELTAS });
  // The fake records every exchange for tests; a benchmark sends tens of thousands, so forget them
  // or the upstream's own heap (and GC pauses) would grow through the run.
  setInterval(() => {
    upstream.requests.length = 0;
  }, 250).unref();

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void upstream.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
  console.log(`READY ${upstream.url}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
