import type { RendererCore } from '../../src-main/testing/renderer-core';
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/methods';

/** One contract call on the real core that must succeed: how a real test seeds and reads its data. */
export async function seed<M extends MethodName>(
  core: RendererCore,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const result = await core.call(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  // The router answered `method` with its contract output.
  return result.value as MethodOutput<M>;
}

/** An Anthropic API-key connection as the editor would add it. */
export const connectionInput = (name: string, models: string[] = []): MethodInput<'connections.upsert'> => ({
  name,
  kind: 'anthropic',
  secret: { type: 'api-key', apiKey: `sk-ant-api03-${name}-abcdefghijkl` },
  models,
});
