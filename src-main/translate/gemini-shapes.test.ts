import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anthropicCountAnswerFromGemini,
  anthropicCountRequestFromGemini,
  estimatedGeminiCount,
  geminiCountAnswerFromAnthropic,
  geminiCountRequestFromAnthropic,
} from './gemini-count-tokens';
import { clientToolId, splitToolId, upstreamToolId } from './gemini-ids';
import { geminiModel, geminiModelList } from './gemini-models';
import { jsonSchemaFromGemini } from './gemini-schema';
import { blocksOfEnvelope, envelopeOf } from './gemini-thinking-envelope';

describe('Gemini countTokens and model list shapes (issue 23 §1)', () => {
  const contents = [{ role: 'user', parts: [{ text: 'How many tokens is this?' }] }];

  it('issue 23 §1: a countTokens body ({contents} or {generateContentRequest}) → Anthropic count_tokens, and the answer back', () => {
    const plain = anthropicCountRequestFromGemini({ contents }, 'claude-sonnet-4-5');
    expect(plain.ok && plain.body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens is this?' }] }],
    });
    const full = anthropicCountRequestFromGemini(
      {
        generateContentRequest: {
          model: 'models/gemini-2.5-pro',
          contents,
          systemInstruction: { parts: [{ text: 'Be brief.' }] },
          tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] }],
        },
      },
      'claude-sonnet-4-5',
    );
    expect(full.ok && full.body).toMatchObject({
      system: 'Be brief.',
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
    });
    expect(full.ok && full.body.max_tokens).toBeUndefined();
    expect(geminiCountAnswerFromAnthropic({ input_tokens: 17 })).toEqual({ totalTokens: 17 });
    const refused = anthropicCountRequestFromGemini(
      { contents: [{ role: 'user', parts: [{ executableCode: {} }] }] },
      'c',
    );
    expect(refused.ok).toBe(false);
  });

  it('issue 23 §1: the estimate answers in Google`s shape; an Anthropic count_tokens asks a Gemini connection', () => {
    expect(estimatedGeminiCount({ contents })?.totalTokens).toBeGreaterThan(5);
    expect(estimatedGeminiCount({ contents: 'x' })).toBeNull();
    const asked = geminiCountRequestFromAnthropic(
      { model: 'claude-x', system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] },
      'gemini-2.5-flash',
    );
    expect(asked.ok && asked.body).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
    expect(anthropicCountAnswerFromGemini({ totalTokens: 31, promptTokensDetails: [] })).toEqual({ input_tokens: 31 });
  });

  it('issue 23 §1: GET /v1beta/models in Google`s shape from model ids, limits only when known', () => {
    expect(
      geminiModelList(['gemini-2.5-pro', { id: 'models/glm-4.6', displayName: 'GLM 4.6', inputTokenLimit: 200_000 }]),
    ).toEqual({
      models: [
        {
          name: 'models/gemini-2.5-pro',
          baseModelId: 'gemini-2.5-pro',
          version: '001',
          displayName: 'gemini-2.5-pro',
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        },
        {
          name: 'models/glm-4.6',
          baseModelId: 'glm-4.6',
          version: '001',
          displayName: 'GLM 4.6',
          inputTokenLimit: 200_000,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        },
      ],
    });
    expect(geminiModel({ id: 'x', outputTokenLimit: 8192, inputTokenLimit: null }).outputTokenLimit).toBe(8192);
  });
});

describe('Gemini ids, signatures and schemas (issue 23 §1)', () => {
  it('issue 23 §1: a signature rides in a client id and comes back exactly, whatever its text', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/).filter((id) => !id.includes('__sig')),
        fc.oneof(fc.base64String({ minLength: 4, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 40 })),
        (id, signature) => {
          const client = clientToolId(id, signature);
          expect(client).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(splitToolId(client)).toEqual({
            id,
            signature: signature === 'skip_thought_signature_validator' ? null : signature,
          });
        },
      ),
    );
    expect(clientToolId('call_1', null)).toBe('call_1');
    expect(splitToolId('toolu_01A')).toEqual({ id: 'toolu_01A', signature: null });
  });

  it('issue 23 §1: ids an upstream refuses are hashed, the same id always alike', () => {
    expect(upstreamToolId('call_ok-1')).toBe('call_ok-1');
    const long = 'x'.repeat(41);
    expect(upstreamToolId(long)).toBe(upstreamToolId(long));
    expect(upstreamToolId(long)).toMatch(/^call_[0-9a-f]{32}$/);
    expect(upstreamToolId('a#b')).not.toBe(upstreamToolId('a_b'));
  });

  it('issue 23 §1: Anthropic thinking survives its envelope; other signatures are no envelope', () => {
    const blocks = [
      { type: 'thinking', thinking: 'Plan: read, then edit.', signature: 'EqQBCkYIAxgCIkB0' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    ];
    const envelope = envelopeOf(blocks) ?? '';
    expect(Buffer.from(envelope, 'base64').toString('base64')).toBe(envelope);
    expect(blocksOfEnvelope(envelope)).toEqual(blocks);
    expect(envelopeOf([{ type: 'text', text: 'x' }])).toBeNull();
    expect(blocksOfEnvelope('skip_thought_signature_validator')).toBeNull();
    expect(blocksOfEnvelope('CiQB0e2Kb3Vh2Fz9kQxW7nZp0y5u8Yc1rT4eLmN6oPqRsTuVwXyZ')).toBeNull();
    expect(blocksOfEnvelope(null)).toBeNull();
  });

  it('issue 23 §1: an OpenAPI-subset schema becomes JSON Schema', () => {
    expect(
      jsonSchemaFromGemini({
        type: 'OBJECT',
        description: 'd',
        properties: {
          a: { type: 'STRING', format: 'enum', enum: ['x', 'y'], nullable: true, example: 'x' },
          b: { type: 'ARRAY', items: { type: 'INTEGER', format: 'int64' }, minItems: '1', maxItems: 5 },
          c: { anyOf: [{ type: 'NUMBER' }, { type: 'BOOLEAN' }] },
        },
        required: ['a'],
        propertyOrdering: ['a', 'b', 'c'],
      }),
    ).toEqual({
      type: 'object',
      description: 'd',
      properties: {
        a: { type: ['string', 'null'], examples: ['x'], enum: ['x', 'y'] },
        b: { type: 'array', items: { type: 'integer', format: 'int64' }, minItems: 1, maxItems: 5 },
        c: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
      },
      required: ['a'],
    });
  });
});
