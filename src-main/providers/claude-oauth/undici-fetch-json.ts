import { request, type Dispatcher } from 'undici';
import type { FetchJson, FetchJsonResult } from './reset/fetch-json';

/** These endpoints answer with small JSON; a larger body is cut and read as "not JSON". */
const BODY_CAP = 1024 * 1024;

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_CAP) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function parseJson(text: string | null): unknown {
  if (text === null || text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * `FetchJson` over undici `request` (not the global fetch), bounded end to end by `timeoutMs`:
 * an abort by that deadline is `timeout`, any other failure `network`; HTTP errors are answers.
 */
export function createUndiciFetchJson(options: { dispatcher?: Dispatcher } = {}): FetchJson {
  return async (req): Promise<FetchJsonResult> => {
    const signal = AbortSignal.timeout(req.timeoutMs);
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: { ...req.headers },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      });
      return { status: response.statusCode, json: parseJson(await readCapped(response.body)) };
    } catch (error) {
      return { error: signal.aborted || isUndiciTimeout(error) ? 'timeout' : 'network' };
    }
  };
}

function isUndiciTimeout(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}
