import { describe, expect, it } from 'vitest';
import { asksForSse, geminiQueryKey, matchGeminiEndpoint } from './gemini-endpoints';

describe('Gemini door paths (issue 23 §1)', () => {
  it('ISSUE-23 generateContent and streamGenerateContent name their model; countTokens and the list too', () => {
    expect(matchGeminiEndpoint('POST', '/v1beta/models/gemini-2.5-pro:generateContent')).toMatchObject({
      kind: 'model',
      endpoint: { name: 'generate_content', wire: 'gemini', urlModel: 'gemini-2.5-pro' },
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/models/conn%2Fm:streamGenerateContent')).toMatchObject({
      kind: 'model',
      endpoint: { operation: 'stream_generate_content', urlModel: 'conn/m' },
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/models/g:countTokens')).toEqual({ kind: 'gemini-count', model: 'g' });
    expect(matchGeminiEndpoint('GET', '/v1beta/models')).toEqual({ kind: 'gemini-models', model: null });
    expect(matchGeminiEndpoint('GET', '/v1beta/models/g')).toEqual({ kind: 'gemini-models', model: 'g' });
  });

  it('ISSUE-23 unknown methods are 404, bad model names 400, wrong verbs name the allowed one', () => {
    expect(matchGeminiEndpoint('POST', '/v1beta/models/g:embedContent')).toMatchObject({
      kind: 'refused',
      error: { status: 404 },
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/tunedModels/x')).toMatchObject({
      kind: 'refused',
      error: { status: 404 },
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/models/%E0%A4%A:generateContent')).toMatchObject({
      kind: 'refused',
      error: { status: 400 },
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/models/a%0Ab:generateContent')).toMatchObject({
      kind: 'refused',
      error: { status: 400 },
    });
    expect(matchGeminiEndpoint('POST', `/v1beta/models/${'m'.repeat(300)}:generateContent`)).toMatchObject({
      kind: 'refused',
      error: { status: 400 },
    });
    expect(matchGeminiEndpoint('GET', '/v1beta/models/g:generateContent')).toEqual({
      kind: 'wrong_method',
      allowed: 'POST',
    });
    expect(matchGeminiEndpoint('POST', '/v1beta/models')).toEqual({ kind: 'wrong_method', allowed: 'GET' });
  });

  it('ISSUE-23 ?key= and alt=sse are read from the query', () => {
    expect(geminiQueryKey('?alt=sse&key=lw-1')).toBe('lw-1');
    expect(geminiQueryKey('?alt=sse')).toBeNull();
    expect(geminiQueryKey('')).toBeNull();
    expect(asksForSse('?alt=sse')).toBe(true);
    expect(asksForSse('?alt=json')).toBe(false);
  });
});
