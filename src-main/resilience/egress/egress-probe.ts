import { isIP } from 'node:net';
import { ProxyAgent, request, type Dispatcher } from 'undici';
import { fail, ok, type Result } from '../../../src-shared/contract/errors';

/** Reads an IP from a probe's body: plain text (`203.0.113.7`) or JSON with an `ip` field. */
export function parseProbeBody(text: string): string | null {
  const trimmed = text.trim();
  if (isIP(trimmed) !== 0) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'object' && parsed !== null && 'ip' in parsed) {
      const ip: unknown = parsed.ip;
      if (typeof ip === 'string' && isIP(ip.trim()) !== 0) return ip.trim();
    }
  } catch {
    // Not JSON either: no IP in it.
  }
  return null;
}

/**
 * Asks the probe URL which IP the request came from, through the connection's own outbound proxy
 * when it has one (the whole point: each proxy is a different way out). Never throws.
 */
export async function probeEgressIp(
  probeUrl: string,
  outboundProxyUrl: string | null,
  timeoutMs: number,
): Promise<Result<string>> {
  const agent = outboundProxyUrl ? new ProxyAgent({ uri: outboundProxyUrl, connect: { timeout: timeoutMs } }) : null;
  const dispatcher: Dispatcher | undefined = agent ?? undefined;
  try {
    const res = await request(probeUrl, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) return fail('upstream_error', `egress probe answered ${res.statusCode}`);
    const ip = parseProbeBody(text.slice(0, 1_000));
    return ip === null ? fail('upstream_error', 'egress probe answered no IP') : ok(ip);
  } catch (error) {
    return fail('upstream_error', `egress probe failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await agent?.destroy().catch(() => undefined);
  }
}
