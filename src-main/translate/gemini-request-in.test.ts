import { describe, expect, it } from 'vitest';
import type { Json, RequestOptions, RequestTranslation } from './translate-types';
import { chatRequestFromGemini } from './chat-request-from-gemini';
import { deepFreeze } from './golden-fixtures.testkit';
import { upstreamToolId } from './gemini-ids';
import { envelopeOf } from './gemini-thinking-envelope';
import { messagesRequestFromGemini } from './messages-request-from-gemini';

/** Gemini requests → Chat and Anthropic: refusals, pairing, thinking and the knobs each target lacks. */
const chatOptions: RequestOptions = { model: 'glm-4.6', reasoning: false };
const claudeOptions: RequestOptions = { model: 'claude-sonnet-4-5', reasoning: true };

function toChat(body: Json, options = chatOptions): RequestTranslation {
  return chatRequestFromGemini(deepFreeze(body), options);
}
function toClaude(body: Json, options = claudeOptions): RequestTranslation {
  return messagesRequestFromGemini(deepFreeze(body), options);
}
function bodyOf(result: RequestTranslation): Json {
  if (!result.ok) throw new Error(`refused ${result.refusal.field}: ${result.refusal.message}`);
  return result.body;
}
function refusedField(result: RequestTranslation): string | null {
  return result.ok ? null : result.refusal.field;
}

const user = (...parts: Json[]) => ({ role: 'user', parts });
const model = (...parts: Json[]) => ({ role: 'model', parts });
const text = (t: string) => ({ text: t });
const call = (name: string, args: Json = {}, id?: string) => ({ functionCall: { name, args, ...(id ? { id } : {}) } });
const response = (name: string, output: string, id?: string) => ({
  functionResponse: { name, response: { output }, ...(id ? { id } : {}) },
});
const tool = (name: string) => ({ name, parametersJsonSchema: { type: 'object', properties: {} } });

describe('Gemini request → Chat and Anthropic (issue 23 §1)', () => {
  it('issue 23 §1: what no other upstream can carry is refused, naming the field, for both targets', () => {
    const cases: [Json, string][] = [
      [{ contents: [], generationConfig: { candidateCount: 2 } }, 'generationConfig.candidateCount'],
      [{ contents: [], generationConfig: { responseLogprobs: true } }, 'generationConfig.responseLogprobs'],
      [
        { contents: [], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
        'generationConfig.responseModalities',
      ],
      [{ contents: [], generationConfig: { responseMimeType: 'text/x.enum' } }, 'generationConfig.responseMimeType'],
      [{ contents: [], generationConfig: { responseSchema: { type: 'STRING' } } }, 'generationConfig.responseMimeType'],
      [{ contents: [], tools: [{ googleSearch: {} }] }, 'tools[0].googleSearch'],
      [
        { contents: [], tools: [{ functionDeclarations: [tool('a')] }, { code_execution: {} }] },
        'tools[1].codeExecution',
      ],
      [{ contents: [], cachedContent: 'cachedContents/abc' }, 'cachedContent'],
      [
        { contents: [user(text('x'))], systemInstruction: { parts: [{ inlineData: {} }] } },
        'systemInstruction.parts[0]',
      ],
      [{ contents: [{ role: 'system', parts: [text('x')] }] }, 'contents[0].role'],
      [
        { contents: [user(text('x')), model({ executableCode: { code: 'print(1)' } })] },
        'contents[1].parts[0].executableCode',
      ],
      [{ contents: [user(response('f', 'x'))] }, 'contents[0].parts[0].functionResponse'],
      [{ contents: [user(call('f'))] }, 'contents[0].parts[0].functionCall'],
      [
        { contents: [user({ fileData: { fileUri: 'gs://b/o.pdf', mimeType: 'application/pdf' } })] },
        'contents[0].parts[0].fileData.fileUri',
      ],
      [
        { contents: [user({ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } })] },
        'contents[0].parts[0].inlineData',
      ],
      [
        {
          contents: [],
          tools: [{ functionDeclarations: [tool('a')] }],
          toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } },
        },
        'toolConfig.functionCallingConfig.allowedFunctionNames',
      ],
      [
        { contents: [], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
        'toolConfig.functionCallingConfig.mode',
      ],
      [{ contents: 'hi' }, 'contents'],
    ];
    for (const [body, field] of cases) {
      expect(refusedField(toChat(body)), field).toBe(field);
      expect(refusedField(toClaude(body)), field).toBe(field);
    }
  });

  it('issue 23 §1: a PDF goes to Anthropic as a document and is refused for Chat; JSON without a schema the other way round', () => {
    const pdf = { contents: [user({ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } })] };
    expect(refusedField(toChat(pdf))).toBe('contents[0].parts[0].inlineData');
    expect(bodyOf(toClaude(pdf)).messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }],
      },
    ]);
    const json = { contents: [user(text('x'))], generationConfig: { responseMimeType: 'application/json' } };
    expect(bodyOf(toChat(json)).response_format).toEqual({ type: 'json_object' });
    expect(refusedField(toClaude(json))).toBe('generationConfig.responseMimeType');
  });

  it('issue 23 §1: a response names its call by id when it can, else by name in order; ids Chat or Anthropic refuse are hashed alike', () => {
    const synth = 'synth_3f2a8c########4_1745402304412_0';
    const body = {
      contents: [
        user(text('go')),
        model(
          call('read', { p: 'a' }, 'r1'),
          call('read', { p: 'b' }, 'r2'),
          call('ls', {}, synth),
          call('read', { p: 'c' }),
        ),
        user(response('read', 'B', 'r2'), response('ls', 'L', synth), response('read', 'A'), response('read', 'C')),
      ],
    };
    const chat = bodyOf(toChat(body)).messages as Json[];
    const hashed = upstreamToolId(synth);
    expect(hashed).toMatch(/^call_[0-9a-f]{32}$/);
    expect(chat.slice(2).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['r2', 'B'],
      [hashed, 'L'],
      ['r1', 'A'],
      ['call_g1_3', 'C'],
    ]);
    const assistant = (bodyOf(toClaude(body)).messages as Json[])[1]?.content as Json[];
    expect(assistant.map((b) => b.id)).toEqual(['r1', 'r2', hashed, 'call_g1_3']);
  });

  it('issue 23 §1: `{error}` results are failed results; other response objects are their JSON', () => {
    const body = {
      contents: [
        user(text('go')),
        model(call('a'), call('b'), call('c')),
        user(
          { functionResponse: { name: 'a', response: { error: 'boom' } } },
          { functionResponse: { name: 'b', response: { stdout: 'x', exitCode: 0 } } },
          { functionResponse: { name: 'c', response: { output: 'o', error: 'cancelled' } } },
        ),
      ],
    };
    const results = (bodyOf(toClaude(body)).messages as Json[])[2]?.content as Json[];
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'call_g1_0', content: 'boom', is_error: true },
      { type: 'tool_result', tool_use_id: 'call_g1_1', content: '{"stdout":"x","exitCode":0}' },
      { type: 'tool_result', tool_use_id: 'call_g1_2', content: '{"output":"o","error":"cancelled"}', is_error: true },
    ]);
    const tools = (bodyOf(toChat(body)).messages as Json[]).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['Error: boom', '{"stdout":"x","exitCode":0}', 'Error: {"output":"o","error":"cancelled"}']);
  });

  it('issue 23 §1: model text parts join with nothing, user text parts with a blank line; thoughts only where they can go', () => {
    const body = {
      contents: [user(text('a'), text('b')), model({ text: 'hmm', thought: true }, text('Hel'), text('lo'))],
    };
    expect(bodyOf(toChat(body)).messages).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: 'Hello' },
    ]);
    expect(toChat(body).ok && (toChat(body) as { dropped: string[] }).dropped).toContain('thought parts');
    const reasoning = bodyOf(toChat(body, { model: 'deepseek-reasoner', reasoning: true })).messages as Json[];
    expect(reasoning[1]).toEqual({ role: 'assistant', content: 'Hello', reasoning_content: 'hmm' });
    expect(bodyOf(toClaude(body)).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
    ]);
  });

  it('issue 23 §1: for Anthropic, empty turns go, same-role turns merge and tool results lead their user turn', () => {
    const body = {
      contents: [
        user(text('one')),
        model(text('')),
        user(text('two')),
        model(call('f')),
        user(text('first words'), response('f', 'done')),
      ],
    };
    const result = toClaude(body);
    expect(bodyOf(result).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_g3_0', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_g3_0', content: 'done' },
          { type: 'text', text: 'first words' },
        ],
      },
    ]);
    expect(result.ok && result.dropped).toContain('empty model turns');
  });

  it('issue 23 §1: Anthropic thinking: budgets and levels, off with a forced tool or an unsigned tool loop, on when the loop carries it', () => {
    const thinking = (config: Json, extra: Json = {}) =>
      bodyOf(toClaude({ contents: [user(text('x'))], generationConfig: { thinkingConfig: config }, ...extra }));
    expect(thinking({ thinkingBudget: 8192 }).thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(thinking({ thinkingBudget: -1 }).thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(thinking({ thinkingBudget: 300 }).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(thinking({ thinkingLevel: 'LOW' }).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(thinking({ thinkingBudget: 0 }).thinking).toBeUndefined();
    expect(thinking({ thinkingLevel: 'MINIMAL' }).thinking).toBeUndefined();
    expect(thinking({ includeThoughts: true }).thinking).toBeUndefined();
    const forced = {
      tools: [{ functionDeclarations: [tool('f')] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    };
    expect(thinking({ thinkingBudget: 2048 }, forced).thinking).toBeUndefined();

    const loop = (signature?: string) => ({
      contents: [
        user(text('x')),
        model({ ...call('f', {}, 'toolu_1'), ...(signature ? { thoughtSignature: signature } : {}) }),
        user(response('f', 'ok', 'toolu_1')),
      ],
      generationConfig: { temperature: 0.7, thinkingConfig: { thinkingBudget: 2048 } },
    });
    const unsigned = toClaude(loop('skip_thought_signature_validator'));
    expect(bodyOf(unsigned).thinking).toBeUndefined();
    expect(bodyOf(unsigned).temperature).toBe(0.7);
    const carried = envelopeOf([{ type: 'thinking', thinking: 'Call f.', signature: 'sig-1' }]) ?? '';
    const signed = bodyOf(toClaude(loop(carried)));
    expect(signed.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(signed.temperature).toBeUndefined();
    expect(((signed.messages as Json[])[1]?.content as Json[])[0]).toEqual({
      type: 'thinking',
      thinking: 'Call f.',
      signature: 'sig-1',
    });
  });

  it('issue 23 §1: sampling knobs: Chat has no topK; Anthropic keeps temperature over topP; VALIDATED reads as AUTO', () => {
    const body = {
      contents: [user(text('x'))],
      tools: [{ functionDeclarations: [tool('f')] }],
      toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } },
      generationConfig: { temperature: 1, topP: 0.9, topK: 40, presencePenalty: 0.5 },
    };
    const chat = toChat(body);
    expect(bodyOf(chat)).toMatchObject({ temperature: 1, top_p: 0.9, presence_penalty: 0.5, tool_choice: 'auto' });
    expect(chat.ok && chat.dropped).toContain('generationConfig.topK');
    const claude = toClaude(body);
    expect(bodyOf(claude)).toMatchObject({ temperature: 1, top_k: 40, tool_choice: { type: 'auto' } });
    expect(bodyOf(claude).top_p).toBeUndefined();
    expect(claude.ok && claude.dropped).toEqual(
      expect.arrayContaining(['generationConfig.topP', 'generationConfig.presencePenalty']),
    );
    expect(bodyOf(toClaude({ contents: [], generationConfig: { topP: 0.9 } })).top_p).toBe(0.9);
  });

  it('issue 23 §1: the stream comes from the URL (options.stream); tool choices map; no tools means no choice', () => {
    const plain = bodyOf(toChat({ contents: [user(text('x'))] }));
    expect(plain).toEqual({ model: 'glm-4.6', messages: [{ role: 'user', content: 'x' }] });
    expect(bodyOf(toClaude({ contents: [user(text('x'))] }, { ...claudeOptions, stream: true })).stream).toBe(true);
    const none = {
      contents: [],
      tools: [{ functionDeclarations: [tool('f')] }],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
    };
    expect(bodyOf(toChat(none)).tool_choice).toBe('none');
    expect(bodyOf(toClaude(none)).tool_choice).toEqual({ type: 'none' });
    const noTools = toChat({ contents: [], toolConfig: { functionCallingConfig: { mode: 'ANY' } } });
    expect(bodyOf(noTools).tool_choice).toBeUndefined();
    expect(noTools.ok && noTools.dropped).toContain('toolConfig.functionCallingConfig.mode');
  });
});
