/**
 * `GET /v1/models` on the wire: answered within 3 s, not redirected, in the shape the caller asked
 * for (Anthropic's with an `anthropic-version` header, else OpenAI's), listing the suite's model.
 */
import { field } from '../../fake-upstream-plans';
import { errorText } from './upstream-facts';
import { anthropicHeaders, openaiHeaders, wire } from './wire';
import type { SuiteContext } from './types';

export const MODELS_DEADLINE_MS = 3000;

export interface ModelsAnswer {
  status: number;
  ms: number;
  ids: string[];
  /** Why the answer does not do, or null. */
  problem: string | null;
}

function shapeProblem(shape: 'anthropic' | 'openai', json: unknown): string | null {
  const data = field(json, 'data');
  if (!Array.isArray(data)) return 'no `data` array';
  if (shape === 'anthropic') {
    if (!data.every((m) => field(m, 'type') === 'model' && typeof field(m, 'id') === 'string'))
      return 'items are not { type: "model", id } (Anthropic shape)';
    if (typeof field(json, 'has_more') !== 'boolean') return 'no `has_more` (Anthropic shape)';
    return null;
  }
  if (field(json, 'object') !== 'list') return '`object` is not "list" (OpenAI shape)';
  if (!data.every((m) => field(m, 'object') === 'model' && typeof field(m, 'id') === 'string'))
    return 'items are not { object: "model", id } (OpenAI shape)';
  return null;
}

export async function listedModels(ctx: SuiteContext, shape: 'anthropic' | 'openai'): Promise<ModelsAnswer> {
  const headers = shape === 'anthropic' ? anthropicHeaders(ctx.key) : openaiHeaders(ctx.key);
  const wanted = shape === 'anthropic' ? ctx.models.anthropic : ctx.models.openai;
  let answer;
  try {
    answer = await wire(`${ctx.url}/v1/models`, { method: 'GET', headers, timeoutMs: MODELS_DEADLINE_MS });
  } catch (error) {
    return { status: 0, ms: MODELS_DEADLINE_MS, ids: [], problem: `no answer within 3 s (${errorText(error)})` };
  }
  const { status, ms } = answer;
  const fail = (problem: string): ModelsAnswer => ({ status, ms, ids: [], problem });
  if (status >= 300 && status < 400) return fail(`${status} redirect to ${answer.headers.get('location') ?? '?'}`);
  if (status !== 200) return fail(`status ${status}: ${answer.body.slice(0, 80)}`);
  if (ms > MODELS_DEADLINE_MS) return fail(`answered after ${ms} ms (> 3 s)`);
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return fail(`not JSON: ${answer.body.slice(0, 60)}`);
  }
  const problem = shapeProblem(shape, json);
  if (problem) return fail(problem);
  const data = field(json, 'data') as unknown[];
  const ids = data.map((m) => String(field(m, 'id')));
  if (!ids.includes(wanted))
    return { status, ms, ids, problem: `${wanted} is not listed (${ids.slice(0, 5).join(', ')}…)` };
  return { status, ms, ids, problem: null };
}
