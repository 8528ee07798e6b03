import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { createEventBus } from '../../kernel/event-bus';
import { createResilienceRuntime } from '../../resilience/resilience-runtime';
import { resilienceStoresOf } from '../../db/resilience-rows';
import { buildCatalog } from '../../routing/build-catalog';
import { createTempDb, type TempDb } from '../../testing/temp-db';
import { createClaudeRuntime } from './claude-runtime';
import { NOW, unified, wallHeaders } from './lane/lane.testkit';
import { createOAuthTokens } from './oauth-tokens';
import { readClaudeUnified } from './lane/claude-unified';

const secret = {
  type: 'oauth',
  accessToken: 'sk-ant-oat01-test-token',
  refreshToken: 'sk-ant-ort01-test',
  expiresAt: NOW + 86_400_000,
} as const;
const view: ConnectionView = {
  id: 'conn-a',
  name: 'sub',
  kind: 'claude-oauth',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: { lowPriorityMode: true },
  secretHint: null,
  createdAt: 0,
  updatedAt: 0,
};

let temp: TempDb | null = null;
afterEach(() => {
  temp?.close();
  temp = null;
});

function scene() {
  temp = createTempDb();
  let at = NOW;
  const now = () => at;
  const catalog = buildCatalog([{ view, secret }], []);
  const connection = catalog.connections[0];
  if (!connection) throw new Error('no connection');
  const fetchJson = () => Promise.resolve({ status: 500, json: null });
  const tokens = createOAuthTokens({
    readSecret: () => secret,
    saveSecret: () => undefined,
    onNeedsReauth: () => undefined,
    fetchJson,
    tokenUrl: () => 'http://127.0.0.1:9/token',
    clientId: () => 'client',
    scopes: () => [],
    now,
  });
  const claude = createClaudeRuntime({
    tokens,
    fetchJson,
    now,
    random: () => 0.5,
    onChange: () => undefined,
    saveOrganizationUuid: () => undefined,
  });
  const resilience = createResilienceRuntime(resilienceStoresOf(temp.db), {}, () => catalog, createEventBus(), now);
  resilience.control.attachTransient({ clear: (id) => claude.clearCoolOffs(id) });
  return { claude, control: resilience.control, connection, catalog, advance: (ms: number) => (at += ms), now };
}

/** A wall 429 opens the lane; slot_busy answers until max-wait (20 min) end it with a 10 min cool-off. */
async function coolOff(s: ReturnType<typeof scene>): Promise<void> {
  const busy = { status: 429, unified: readClaudeUnified(unified({ 'slow-status': 'slot_busy' })) };
  await s.claude.afterResponse(
    s.connection,
    secret,
    { status: 429, unified: readClaudeUnified(wallHeaders()) },
    false,
    undefined,
  );
  await s.claude.afterResponse(s.connection, secret, busy, true, undefined);
  s.advance(1_200_000);
  await s.claude.afterResponse(s.connection, secret, busy, true, undefined);
  s.advance(1);
}

const coolingUntil = (s: ReturnType<typeof scene>) => {
  const lane = s.claude.status(s.catalog.connections)[0]?.lane;
  return lane && 'coolingOffUntilMs' in lane ? lane.coolingOffUntilMs : undefined;
};

describe('PROD-4: the tray\'s "Clear all" reaches the Claude lane', () => {
  it('PROD-4, LOWP-8: cooldowns.clear all lifts a max-wait lane cool-off and counts it', async () => {
    const s = scene();
    await coolOff(s);
    expect(coolingUntil(s)).toBeGreaterThan(s.now());
    expect(s.control.clear({ target: 'all' }, s.now())).toBeGreaterThanOrEqual(1);
    expect(coolingUntil(s)).toBeUndefined();
    expect(s.control.clear({ target: 'all' }, s.now())).toBe(0);
  });

  it("PROD-4, LOWP-8: clearing one connection lifts that connection's lane cool-off too", async () => {
    const s = scene();
    await coolOff(s);
    s.control.clear({ target: 'connection', connection: 'sub' }, s.now());
    expect(coolingUntil(s)).toBeUndefined();
  });
});
