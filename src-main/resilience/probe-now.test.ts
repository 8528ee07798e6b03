import { describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import {
  connectionRow,
  coolingRow,
  lockRow,
  providerRow,
  snapshotOf,
  terminalRow,
} from '../shell/shell-fixtures.testkit';
import { NO_MODELS_PATH } from '../kernel/provider-adapter';
import { liftFor, probeSubject, probeVerdict } from './probe-now';

const PROVIDER = 'anthropic@https://api.anthropic.com';
const served = (models: string[] = []): ConnectionTestResult => ({
  ok: true,
  status: 200,
  latencyMs: 40,
  message: 'Connected in 40 ms',
  models,
});
const everyoneEnabled = () => true;

describe('probe now: which connection is asked', () => {
  const snapshot = snapshotOf({
    connections: [terminalRow('banned-1', 'banned'), coolingRow('a', 60_000), connectionRow('b')],
    providers: [providerRow(PROVIDER, { state: 'OPEN', retryAfterMs: 30_000 })],
    models: [lockRow('a', 'claude-opus', 60_000)],
  });

  it('COOL-10: a cooling connection is asked itself; a terminal one is refused, never lifted by a probe', () => {
    expect(probeSubject(snapshot, { target: 'connection', connection: 'a' }, everyoneEnabled)).toEqual({
      ok: true,
      connection: 'a',
      model: null,
    });
    expect(probeSubject(snapshot, { target: 'connection', connection: 'banned-1' }, everyoneEnabled)).toMatchObject({
      ok: false,
      code: 'conflict',
    });
    expect(probeSubject(snapshot, { target: 'connection', connection: 'ghost' }, everyoneEnabled)).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('BRK-7: a provider breaker is probed through its first enabled, non-terminal connection', () => {
    expect(probeSubject(snapshot, { target: 'provider', provider: PROVIDER }, everyoneEnabled)).toEqual({
      ok: true,
      connection: 'a',
      model: null,
    });
    expect(probeSubject(snapshot, { target: 'provider', provider: PROVIDER }, (n) => n !== 'a')).toEqual({
      ok: true,
      connection: 'b',
      model: null,
    });
    expect(probeSubject(snapshot, { target: 'provider', provider: PROVIDER }, () => false)).toMatchObject({
      ok: false,
      code: 'conflict',
    });
    expect(probeSubject(snapshot, { target: 'provider', provider: 'other' }, everyoneEnabled)).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('LOCK-6: a model lockout is probed on its connection, naming the model', () => {
    const key = snapshot.models[0]?.key ?? '';
    expect(probeSubject(snapshot, { target: 'model', key }, everyoneEnabled)).toEqual({
      ok: true,
      connection: 'a',
      model: 'claude-opus',
    });
    expect(probeSubject(snapshot, { target: 'model', key: 'gone' }, everyoneEnabled)).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
});

describe('probe now: what the answer means', () => {
  const subject = { connection: 'a', model: null };

  it('an answer lifts the item; a refusal or an unreachable upstream keeps it with the reason', () => {
    expect(probeVerdict(served(), subject)).toEqual({ ok: true, lift: true, message: 'a answered in 40 ms; lifted' });
    const limited: ConnectionTestResult = {
      ok: false,
      status: 429,
      latencyMs: 20,
      message: 'Upstream answered 429: rate limited',
      models: [],
    };
    expect(probeVerdict(limited, subject)).toEqual({
      ok: false,
      lift: false,
      message: 'a still fails: Upstream answered 429: rate limited',
    });
  });

  it('a kind with no model list to ask is lifted so the next request is the probe', () => {
    const none: ConnectionTestResult = { ok: false, status: null, latencyMs: 0, message: NO_MODELS_PATH, models: [] };
    expect(probeVerdict(none, subject)).toMatchObject({ ok: false, lift: true });
  });

  it('a model the listing does not name is still lifted, and the message says so', () => {
    expect(probeVerdict(served(['claude-haiku']), { connection: 'a', model: 'claude-opus' }).message).toBe(
      'a answered in 40 ms; lifted (its model list does not name claude-opus)',
    );
  });

  it('the lift is the same clear the tray sends for that item', () => {
    expect(liftFor({ target: 'connection', connection: 'id-a' }, { connection: 'a' })).toEqual({
      target: 'connection',
      connection: 'a',
    });
    expect(liftFor({ target: 'provider', provider: PROVIDER }, { connection: 'a' })).toEqual({
      target: 'provider',
      provider: PROVIDER,
    });
    expect(liftFor({ target: 'model', key: 'k' }, { connection: 'a' })).toEqual({ target: 'model', key: 'k' });
  });
});
