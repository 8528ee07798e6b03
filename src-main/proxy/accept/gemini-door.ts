import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, ok, type AppError, type Result } from '../../../src-shared/contract/errors';
import { listModels } from '../../routing/resolve-targets';
import { estimatedGeminiCount } from '../../translate/gemini-count-tokens';
import { geminiModel, geminiModelList } from '../../translate/gemini-models';
import { asArray, asNumber, asObject, parseObject } from '../../translate/json-narrow';
import type { ProxyContext } from '../proxy-context';
import { sendClientError } from '../relay/client-errors';
import type { ModelEndpoint } from './endpoints';
import type { ModelBody } from './parse-model-body';
import { readBody } from './read-body';

/**
 * Issue 23 §1: what the Gemini door answers itself. `GET /v1beta/models` lists what Leeway serves in
 * Google's shape; `:countTokens` is the estimate (count-tokens-estimate.ts) for every connection; a
 * generateContent body is read once here for what routing needs (its model and stream are the URL's).
 */

function sendJson(res: ServerResponse, status: number, body: unknown, head: boolean): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(head ? undefined : text);
}

export function serveGeminiModels(ctx: ProxyContext, res: ServerResponse, model: string | null, head: boolean): void {
  const ids = listModels(ctx.config.catalog(), 'gemini');
  if (model === null) return sendJson(res, 200, geminiModelList(ids), head);
  const id = model.startsWith('models/') ? model.slice('models/'.length) : model;
  if (ids.includes(id)) return sendJson(res, 200, geminiModel(id), head);
  sendClientError(res, 'gemini', { code: 'not_found', status: 404, message: `models/${id} is not found` });
}

export async function serveGeminiCount(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, res, ctx.config.settings().maxBodyBytes);
  if (!body.ok) return sendClientError(res, 'gemini', body.error);
  const json = parseObject(body.value.toString('utf8'));
  if (!json) return sendClientError(res, 'gemini', invalidJson());
  const counted = estimatedGeminiCount(json);
  if (!counted) {
    return sendClientError(res, 'gemini', {
      code: 'invalid_input',
      status: 400,
      message: 'contents: the request cannot be read as Gemini contents',
    });
  }
  sendJson(res, 200, counted, false);
}

function invalidJson(): AppError {
  return { code: 'invalid_json', status: 400, message: 'Invalid JSON payload received: the body is not a JSON object' };
}

/** A generateContent body: a JSON object with a non-empty `contents` array; model and stream from the URL. */
export function parseGeminiBody(raw: Buffer, endpoint: ModelEndpoint): Result<ModelBody> {
  const json = parseObject(raw.toString('utf8'));
  if (!json) return fail('invalid_json', invalidJson().message, { status: 400 });
  const contents = asArray(json.contents);
  if (!contents || contents.length === 0) {
    return fail('invalid_input', 'contents: is required (at least one Content)', { status: 400 });
  }
  const model = endpoint.urlModel ?? '';
  const config = asObject(json.generationConfig) ?? asObject(json.generation_config);
  const budget = asNumber(config?.maxOutputTokens ?? config?.max_output_tokens);
  return ok({
    model,
    stream: endpoint.operation === 'stream_generate_content',
    rawModel: model,
    modelAt: null,
    maxTokens: budget !== null && Number.isInteger(budget) && budget >= 0 ? budget : null,
    emptySignature: false,
  });
}
