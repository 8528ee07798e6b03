import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import type { RuntimeConnection } from '../routing/catalog';
import type { UpstreamPools } from './upstream-pools';

const TEST_TIMEOUT_MS = 15_000;

/** First words of an upstream error, for the person pressing "Test"; never echoes request headers. */
function summarise(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.slice(0, 200);
}

/**
 * Checks a connection the cheapest way its API allows: list its models with its own credential.
 * Costs no tokens, proves the URL and the credential, and is not fed to the resilience engines.
 */
export async function testConnection(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  now: () => number,
): Promise<ConnectionTestResult> {
  const started = now();
  const path = connection.adapter.pathFor('models');
  if (!connection.secret)
    return { ok: false, status: null, latencyMs: 0, message: 'No credential stored for this connection', models: [] };
  if (path === null)
    return {
      ok: false,
      status: null,
      latencyMs: 0,
      message: 'This connection kind has no model list to test against',
      models: [],
    };
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...connection.adapter.authHeaders(connection.secret),
  };
  if (connection.adapter.format === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  connection.adapter.decorateHeaders?.(headers);
  try {
    const res = await pools.forOrigin(connection.origin, connection.outboundProxy).request({
      method: 'GET',
      path: connection.basePath + path,
      headers,
      headersTimeout: TEST_TIMEOUT_MS,
      bodyTimeout: TEST_TIMEOUT_MS,
    });
    const text = await res.body.text();
    const latencyMs = now() - started;
    if (res.statusCode >= 200 && res.statusCode < 300) {
      let models: string[] = [];
      try {
        const data = (JSON.parse(text) as { data?: { id?: unknown }[] }).data ?? [];
        models = data
          .map((m) => m.id)
          .filter((id): id is string => typeof id === 'string')
          .slice(0, 200);
      } catch {
        // A 2xx without a parsable list still proves the credential.
      }
      return { ok: true, status: res.statusCode, latencyMs, message: `Connected in ${latencyMs} ms`, models };
    }
    return {
      ok: false,
      status: res.statusCode,
      latencyMs,
      message: `Upstream answered ${res.statusCode}: ${summarise(text)}`,
      models: [],
    };
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    return {
      ok: false,
      status: null,
      latencyMs: now() - started,
      message: `Could not reach ${connection.origin} (${code})`,
      models: [],
    };
  }
}
