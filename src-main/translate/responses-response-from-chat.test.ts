import { describe, expect, it } from 'vitest';
import { responsesResponseFromChat } from './responses-response-from-chat';
import { responsesFixture } from './responses.testkit';
import type { Json, ResponseContext } from './translate-types';

const codexRequest = responsesFixture('codex-request-fallback-model.json');
// The fallback request has namespace tools; add the freeform apply_patch a gpt-5.5 request carries.
const patchTool = (responsesFixture('codex-request-gpt-5.5.json').tools as Json[]).find((t) => t.type === 'custom');
const CONTEXT: ResponseContext = {
  clientModel: 'my-combo',
  request: { ...codexRequest, tools: [...(codexRequest.tools as Json[]), patchTool] },
  idSeed: 'seed1',
};

describe('responsesResponseFromChat', () => {
  it('a tool-calling answer → reasoning, message and function / custom / namespaced call items', () => {
    const out = responsesResponseFromChat(responsesFixture('chat-completion-tools.json'), CONTEXT);
    expect(out).toMatchObject({
      id: 'resp_seed1',
      object: 'response',
      created_at: 1767225601,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'my-combo',
      parallel_tool_calls: true,
      tool_choice: 'auto',
      store: false,
    });
    expect(out.output).toEqual([
      {
        id: 'rs_seed1_0',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Two steps are needed.' }],
      },
      {
        id: 'msg_seed1_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'I will patch and list.', annotations: [], logprobs: [] }],
      },
      {
        id: 'fc_seed1_2',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_X',
        name: 'exec_command',
        arguments: '{"cmd":"ls"}',
      },
      {
        id: 'ctc_seed1_3',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_Y',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n',
      },
      {
        id: 'fc_seed1_4',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_Z',
        name: 'close_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"target":"a1"}',
      },
    ]);
    expect(out.usage).toEqual({
      input_tokens: 500,
      input_tokens_details: { cached_tokens: 256 },
      output_tokens: 60,
      output_tokens_details: { reasoning_tokens: 20 },
      total_tokens: 560,
    });
  });

  it('echoes the request: tools as sent, instructions, reasoning effort', () => {
    const out = responsesResponseFromChat(responsesFixture('chat-completion-tools.json'), {
      ...CONTEXT,
      request: {
        input: 'x',
        instructions: 'Be brief.',
        reasoning: { effort: 'high' },
        tools: [{ type: 'web_search' }],
      },
    });
    expect(out.instructions).toBe('Be brief.');
    expect(out.reasoning).toEqual({ effort: 'high', summary: null });
    expect(out.tools).toEqual([{ type: 'web_search' }]);
  });

  it('finish_reason length → status incomplete with reason max_output_tokens; DeepSeek cache hits → cached_tokens', () => {
    const out = responsesResponseFromChat(responsesFixture('chat-completion-length.json'), CONTEXT);
    expect(out.status).toBe('incomplete');
    expect(out.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect((out.output as Json[]).map((item) => item.type)).toEqual(['message']);
    expect(out.usage).toMatchObject({ input_tokens: 12, input_tokens_details: { cached_tokens: 8 }, total_tokens: 16 });
  });

  it('a custom tool call whose arguments are not the {"input"} object keeps the raw text as input', () => {
    const out = responsesResponseFromChat(
      {
        created: 1,
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'c', type: 'function', function: { name: 'apply_patch', arguments: '*** Begin Patch' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      CONTEXT,
    );
    expect(out.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', input: '*** Begin Patch' })]);
    expect(out.usage).toBeNull();
  });

  it('a tool call named like no declared tool stays a plain function_call', () => {
    const out = responsesResponseFromChat(
      {
        choices: [
          {
            message: { tool_calls: [{ id: 'c', type: 'function', function: { name: 'unknown', arguments: '{}' } }] },
            finish_reason: 'tool_calls',
          },
        ],
      },
      CONTEXT,
    );
    expect(out.output).toEqual([
      { id: 'fc_seed1_0', type: 'function_call', status: 'completed', call_id: 'c', name: 'unknown', arguments: '{}' },
    ]);
  });

  it('an error body without choices → a failed response carrying code and message', () => {
    const out = responsesResponseFromChat({ error: { message: 'quota gone', type: 'insufficient_quota' } }, CONTEXT);
    expect(out.status).toBe('failed');
    expect(out.error).toEqual({ code: 'insufficient_quota', message: 'quota gone' });
    expect(out.output).toEqual([]);
  });
});

describe('responsesResponseFromChat: tools declared in additional_tools (issue 21 §10)', () => {
  it('issue 21 §10: a whole answer calling an additional tool maps back to its namespace and kind', () => {
    const request = responsesFixture('codex-request-responses-lite.json');
    const response = responsesResponseFromChat(
      {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'up',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_X',
                  type: 'function',
                  function: { name: 'functions__exec', arguments: '{"input":"text(1)"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      { clientModel: 'gpt-6.1-sol', request, idSeed: 's3' },
    );
    expect(response.output).toEqual([
      {
        id: 'ctc_s3_0',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_X',
        name: 'exec',
        namespace: 'functions',
        input: 'text(1)',
      },
    ]);
  });
});
