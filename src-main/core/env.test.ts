import { describe, expect, it } from 'vitest';
import { readEnv } from './env';

describe('the environment, read once by the entry (issue 22)', () => {
  it('parses what the core acts on and keeps a frozen copy of every variable', () => {
    const source: Record<string, string | undefined> = {
      LEEWAY_EMERGENCY_FALLBACK: 'yes',
      LEEWAY_MODEL_DISCOVERY: '0',
      https_proxy: 'http://proxy.local:3128',
      NO_PROXY: 'internal.example',
      TEAM_KEY: 'sk-ant-from-the-shell',
    };
    const env = readEnv(source);
    expect(env.emergencyFallback).toBe(true);
    expect(env.modelDiscovery).toBe(false);
    expect(env.proxy).toEqual({ httpProxy: '', httpsProxy: 'http://proxy.local:3128', noProxy: 'internal.example' });
    source.TEAM_KEY = 'changed later';
    expect(env.vars.TEAM_KEY).toBe('sk-ant-from-the-shell');
    expect(Object.isFrozen(env.vars)).toBe(true);
  });

  it('with nothing set: no fallback, discovery on, upstreams reached directly', () => {
    expect(readEnv({})).toEqual({ vars: {}, proxy: null, emergencyFallback: false, modelDiscovery: true });
  });
});
