/**
 * The translated rows' second upstream, in its own process (`node --import tsx
 * scripts/bench/upstream-openai-child.ts`): the fake OpenAI API (Chat Completions and the Responses
 * API) answering with the same 50-delta text as upstream-child, so a translated stream and a
 * pass-through one carry the same events. Prints `READY <origin>`; exits when its stdin closes or on
 * SIGTERM.
 */
import { startFakeUpstream } from '../../src-main/testing/fake-upstream';
import { STREAM_DELTAS } from './shared';
import { benchText } from './translated-wire';

async function main(): Promise<void> {
  const upstream = await startFakeUpstream({ format: 'openai', name: 'bench-openai' });
  upstream.setDefault({ kind: 'ok', text: benchText(), deltas: STREAM_DELTAS });
  // As in upstream-child: the fake records every exchange, a benchmark sends thousands.
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
