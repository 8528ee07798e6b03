/**
 * The proxy the accept-layer fault suites (issue 21) run against: two connections behind combos,
 * so the model changes on the way up and the body scanner runs on small bodies too.
 */
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { portOf } from '../fuzz/raw-http';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../start-leeway';

export interface AcceptBench {
  h: RunningLeeway;
  anthropic: FakeUpstream;
  openai: FakeUpstream;
  port: number;
}

export async function startAcceptBench(): Promise<AcceptBench> {
  const anthropic = await startFakeUpstream({ format: 'anthropic' });
  const openai = await startFakeUpstream({ format: 'openai' });
  const h = await startLeeway({
    connections: [
      anthropicConnection('a1', anthropic.url, { models: ['claude-sonnet-4-5'] }),
      openaiConnection('o1', openai.url, { models: ['gpt-4o'] }),
    ],
    combos: [
      { name: 'main', targets: [{ connection: 'a1', model: 'claude-sonnet-4-5' }] },
      { name: 'chat', targets: [{ connection: 'o1', model: 'gpt-4o' }] },
    ],
  });
  return { h, anthropic, openai, port: portOf(h.url) };
}

export async function stopAcceptBench(bench: AcceptBench): Promise<void> {
  await bench.h.stop();
  await bench.anthropic.close();
  await bench.openai.close();
}

export const anthropicHeaders = (key: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
});

export const openaiHeaders = (key: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` });

export interface ActivityRow {
  status: number;
  errorCode: string | null;
  endpoint: string;
}

export async function newestRow(h: RunningLeeway): Promise<ActivityRow | undefined> {
  const list = await h.core.router.call('activity.list', { limit: 1 });
  return list.ok ? (list.value as ActivityRow[])[0] : undefined;
}

/** How many activity rows there are (up to 1000). */
export async function rowCount(h: RunningLeeway): Promise<number> {
  const list = await h.core.router.call('activity.list', { limit: 1000 });
  return list.ok ? (list.value as ActivityRow[]).length : -1;
}
