import { describe, expect, it } from 'vitest';
import { geminiAdapter } from './gemini-adapter';
import { parseGeminiModelPage } from './gemini-models-page';

describe('gemini adapter (issue 23 §1)', () => {
  it('ISSUE-23 the model and the call are in the path, the key in x-goog-api-key', () => {
    expect(geminiAdapter.pathFor('generate_content', 'gemini-2.5-pro')).toBe(
      '/v1beta/models/gemini-2.5-pro:generateContent',
    );
    expect(geminiAdapter.pathFor('stream_generate_content', 'models/g')).toBe(
      '/v1beta/models/g:streamGenerateContent?alt=sse',
    );
    expect(geminiAdapter.pathFor('models')).toBe('/v1beta/models');
    expect(geminiAdapter.pathFor('messages', 'g')).toBeNull();
    expect(geminiAdapter.authHeaders({ type: 'api-key', apiKey: 'AIza-1' })).toEqual({ 'x-goog-api-key': 'AIza-1' });
  });

  it('ISSUE-23 discovery reads Google model pages, keeps generateContent models and the page token', () => {
    const page = parseGeminiModelPage({
      models: [
        {
          name: 'models/gemini-2.5-flash',
          displayName: 'Gemini 2.5 Flash',
          supportedGenerationMethods: ['generateContent'],
        },
        { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
        { name: 'models/bad\nid' },
        { nope: true },
      ],
      nextPageToken: 'tok',
    });
    expect(page).toEqual({
      models: [{ id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', createdAt: null }],
      nextAfter: 'tok',
    });
    expect(parseGeminiModelPage({ data: [] })).toBeNull();
  });

  it('ISSUE-23 a RetryInfo retryDelay is the wait; a body without one says nothing', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        message: 'Resource has been exhausted',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.5s' }],
      },
    });
    expect(geminiAdapter.signals(429, {}, body, 0).retryAfter).toEqual({ ms: 34_500, source: 'body' });
    expect(geminiAdapter.signals(429, {}, '{"error":{"code":429,"message":"slow down"}}', 0).retryAfter).toBeNull();
  });
});
