import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import { reservePort, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let fakes: FakeUpstream[] = [];
let h: RunningLeeway | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function test(name: string): Promise<ConnectionTestResult> {
  const result = await h?.core.router.call('connections.test', { name });
  if (!result?.ok) throw new Error(JSON.stringify(result));
  return result.value as ConnectionTestResult;
}

describe('connections.test', () => {
  it('PROD-5: lists the upstream models with the connection key, for both API formats', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', apiKey: 'sk-ant-secret-a-0000', models: ['claude-x'] });
    const o = await startFakeUpstream({ format: 'openai', apiKey: 'sk-openai-secret-o-0000', models: ['gpt-x'] });
    fakes.push(a, o);
    h = await startLeeway({ connections: [anthropicConnection('a', a.url), openaiConnection('o', o.url)] });
    expect(await test('a')).toMatchObject({ ok: true, status: 200, models: ['claude-x'] });
    expect(await test('o')).toMatchObject({ ok: true, status: 200, models: ['gpt-x'] });
    // Anthropic's list is paged (issue 13 §5): the first page asks for the largest one.
    expect(a.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models?limit=1000' });
    expect(o.requests[0]?.path).toBe('/v1/models');
  });

  it('PROD-5: a wrong key and an unreachable host are explained without secrets', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', apiKey: 'the-right-key-000000000' });
    fakes.push(a);
    const dead = `http://127.0.0.1:${await reservePort()}`;
    h = await startLeeway({ connections: [anthropicConnection('a', a.url), anthropicConnection('dead', dead)] });
    const wrong = await test('a');
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(wrong.message).not.toContain('sk-ant-secret');
    const unreachable = await test('dead');
    expect(unreachable).toMatchObject({ ok: false, status: null });
    expect(unreachable.message).toContain('Could not reach');
    const missing = await h.core.router.call('connections.test', { name: 'ghost' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
