import { describe, expect, it } from 'vitest';
import { AGENTROUTER, CLAUDE_OAUTH, OPENAI, provider, UNKNOWN_GATEWAY } from './classify.testkit';
import { resolveService } from './known-providers';

describe('known providers', () => {
  it('RESTATE-8: an openai-compatible connection to agentrouter.org, or a subdomain, is the agentrouter service', () => {
    expect(resolveService(AGENTROUTER)).toEqual({ id: 'agentrouter', known: true });
    expect(resolveService(provider('openai-compatible', 'https://api.AgentRouter.org:8443'))).toEqual({
      id: 'agentrouter',
      known: true,
    });
  });

  it('RESTATE-8: a look-alike host is not the service', () => {
    expect(resolveService(provider('openai-compatible', 'https://evilagentrouter.org')).known).toBe(false);
  });

  it('RESTATE-8: first-party kinds resolve by host; an unknown host is its own service id', () => {
    expect(resolveService(OPENAI).id).toBe('openai');
    expect(resolveService(CLAUDE_OAUTH).id).toBe('anthropic');
    expect(resolveService(UNKNOWN_GATEWAY)).toEqual({ id: 'llm.example.com', known: false });
    expect(resolveService(provider('openai-compatible', 'not a url'))).toEqual({ id: 'not a url', known: false });
  });
});
