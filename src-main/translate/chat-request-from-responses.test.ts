import { describe, expect, it } from 'vitest';
import { chatRequestFromResponses } from './chat-request-from-responses';
import { messagesRequestFromChat } from './messages-request-from-chat';
import { responsesFixture } from './responses.testkit';
import type { Json, RequestOptions, RequestTranslation } from './translate-types';

const OPTIONS: RequestOptions = { model: 'glm-4.6', reasoning: true };

function translate(body: Json, options: RequestOptions = OPTIONS): { body: Json; dropped: string[] } {
  const out = chatRequestFromResponses(body, options);
  if (!out.ok) throw new Error(`refused: ${out.refusal.field}: ${out.refusal.message}`);
  return { body: out.body, dropped: out.dropped };
}

function refusal(body: Json, options: RequestOptions = OPTIONS): { field: string; message: string } {
  const out: RequestTranslation = chatRequestFromResponses(body, options);
  if (out.ok) throw new Error('expected a refusal');
  return out.refusal;
}

function messages(body: Json): Json[] {
  return body.messages as Json[];
}

function toolNames(body: Json): string[] {
  return ((body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json).name));
}

describe('chatRequestFromResponses: the codex CLI 0.169 requests (captured fixtures)', () => {
  it('a first turn (gpt-5.5 metadata): developer messages → system, tools, defaults dropped and listed', () => {
    const { body, dropped } = translate(responsesFixture('codex-request-gpt-5.5.json'));
    expect(body.model).toBe('glm-4.6');
    expect(messages(body).map((m) => m.role)).toEqual(['system', 'system', 'user', 'user']);
    expect(messages(body)[3]).toEqual({ role: 'user', content: 'say hi' });
    // The two input_text parts of one developer message become one system string.
    expect(String(messages(body)[1]?.content)).toMatch(/^<skills_instructions>[\s\S]*\n\n<permissions instructions>/);
    expect(toolNames(body)).toEqual([
      'exec_command',
      'write_stdin',
      'request_user_input',
      'apply_patch',
      'view_image',
      'get_goal',
      'create_goal',
      'update_goal',
    ]);
    expect(body.tool_choice).toBe('auto');
    expect(body.parallel_tool_calls).toBe(true);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.reasoning_effort).toBe('medium');
    expect(body).not.toHaveProperty('store');
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(dropped).toEqual([
      'tools[8] (tool_search: a hosted tool a chat model cannot run)',
      'tools[9] (web_search: a hosted tool a chat model cannot run)',
      'text.verbosity',
      'include reasoning.encrypted_content (nothing of the kind is produced)',
      'prompt_cache_key',
      'client_metadata',
    ]);
  });

  it('the freeform apply_patch tool becomes a function with one string `input`, its grammar in the description', () => {
    const { body } = translate(responsesFixture('codex-request-gpt-5.5.json'));
    const patch = (body.tools as Json[]).find((t) => (t.function as Json).name === 'apply_patch');
    const fn = patch?.function as Json;
    expect(fn.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.any(String) as string } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(String(fn.description)).toContain('FREEFORM');
    expect(String(fn.description)).toContain('start: begin_patch hunk+ end_patch');
  });

  it('function tools keep name, description and parameters; `strict: false` is left out', () => {
    const { body } = translate(responsesFixture('codex-request-gpt-5.5.json'));
    const exec = (body.tools as Json[])[0];
    expect(exec?.type).toBe('function');
    const fn = exec?.function as Json;
    expect(fn.name).toBe('exec_command');
    expect(String(fn.description).length).toBeGreaterThan(10);
    expect((fn.parameters as Json).properties).toHaveProperty('cmd');
    expect(fn).not.toHaveProperty('strict');
  });

  it('the fallback-metadata request: namespace tools are flattened to `<namespace>__<name>`', () => {
    const { body, dropped } = translate(responsesFixture('codex-request-fallback-model.json'));
    expect(toolNames(body)).toContain('multi_agent_v1__spawn_agent');
    expect(toolNames(body)).toContain('multi_agent_v1__close_agent');
    expect(toolNames(body)).not.toContain('multi_agent_v1');
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(dropped).toContain('reasoning.summary (chat has no reasoning summaries)');
    expect(dropped).toContain('tools[8] (web_search: a hosted tool a chat model cannot run)');
  });

  it('a tool follow-up: function_call → assistant tool_calls (call_id kept), function_call_output → tool message', () => {
    const { body, dropped } = translate(responsesFixture('codex-request-function-call-followup.json'));
    expect(messages(body).slice(4)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_abc',
            type: 'function',
            function: { name: 'exec_command', arguments: '{"cmd":"echo hello-from-tool"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: expect.stringContaining('hello-from-tool') as string },
    ]);
    // The reasoning item held only encrypted content: nothing to carry, and it is noted.
    expect(dropped).toContain('reasoning encrypted_content (only OpenAI can read it)');
  });

  it('a custom tool follow-up: custom_tool_call → tool call with {"input"}, its output → tool message', () => {
    const { body } = translate(responsesFixture('codex-request-custom-tool-followup.json'));
    const [call, result] = messages(body).slice(4);
    const toolCall = (call?.tool_calls as Json[])[0];
    expect(toolCall?.id).toBe('call_custom1');
    expect(toolCall?.function).toEqual({
      name: 'apply_patch',
      arguments: JSON.stringify({ input: '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n' }),
    });
    expect(result).toMatchObject({ role: 'tool', tool_call_id: 'call_custom1' });
    expect(String(result?.content)).toContain('Success. Updated the following files');
  });

  it('a namespaced call in history keeps the flattened name its tool was declared with', () => {
    const { body } = translate(responsesFixture('codex-request-namespace-followup.json'));
    const call = (messages(body)[4]?.tool_calls as Json[])[0];
    expect((call?.function as Json).name).toBe('multi_agent_v1__close_agent');
  });

  it('reasoning_text content codex sends back → reasoning_content on the same assistant message', () => {
    const { body } = translate(responsesFixture('codex-request-reasoning-text-followup.json'));
    expect(messages(body)[4]).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: 'raw chain of thought',
    });
    expect((messages(body)[4]?.tool_calls as Json[]).length).toBe(1);
  });

  it('reasoning is dropped (and noted) when the upstream takes no reasoning_content', () => {
    const { body, dropped } = translate(responsesFixture('codex-request-reasoning-text-followup.json'), {
      model: 'm',
      reasoning: false,
    });
    expect(messages(body)[4]).not.toHaveProperty('reasoning_content');
    expect(dropped).toContain('reasoning items (the upstream takes no reasoning_content)');
  });

  it("view_image's output (an input_image part) → tool text plus one user message with the image after the tool run", () => {
    const { body } = translate(responsesFixture('codex-request-image-output-followup.json'));
    const [, tool, images] = messages(body).slice(4);
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_abc', content: '(image attached in the next message)' });
    expect(images).toEqual({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) as string } }],
    });
  });
});

describe('chatRequestFromResponses: fields', () => {
  it('instructions → a leading system message; a string input → one user message', () => {
    const { body } = translate({ model: 'x', instructions: 'Be brief.', input: 'hello' });
    expect(body).toEqual({
      model: 'glm-4.6',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
    });
  });

  it('roles: system and developer → system, user, assistant (output_text) → assistant text; easy messages without type', () => {
    const { body } = translate({
      input: [
        { role: 'system', content: 'sys' },
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'q' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a', annotations: [] }] },
      ],
    });
    expect(messages(body)).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'system', content: 'dev' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
  });

  it('input_image → image_url part (detail kept when chat knows it); file_id images are refused', () => {
    const { body } = translate({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is this' },
            { type: 'input_image', image_url: 'https://example.test/cat.png', detail: 'low' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'original' },
          ],
        },
      ],
    });
    expect(messages(body)[0]?.content).toEqual([
      { type: 'text', text: 'what is this' },
      { type: 'image_url', image_url: { url: 'https://example.test/cat.png', detail: 'low' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }).field).toBe(
      'input[0].content[0].image_url',
    );
  });

  it('input_file and audio parts are refused naming the part', () => {
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] })).toMatchObject({
      field: 'input[0].content[0].type',
    });
  });

  it('consecutive function calls merge into one assistant message with the text and reasoning before them', () => {
    const { body } = translate({
      input: [
        { role: 'user', content: 'do two things' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'On it.' }] },
        { type: 'function_call', call_id: 'c1', name: 'a', arguments: '{}' },
        { type: 'function_call', call_id: 'c2', name: 'b', arguments: '{"x":1}' },
        { type: 'function_call_output', call_id: 'c1', output: 'one' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'two' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
      ],
    });
    expect(messages(body)).toEqual([
      { role: 'user', content: 'do two things' },
      {
        role: 'assistant',
        content: 'On it.',
        reasoning_content: 'plan',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'b', arguments: '{"x":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('a tool call without call_id is refused naming it', () => {
    expect(refusal({ input: [{ type: 'function_call', name: 'a', arguments: '{}' }] }).field).toBe('input[0].call_id');
  });

  it('hosted-tool records in history (web_search_call, tool_search_*) are dropped and noted', () => {
    const { body, dropped } = translate({
      input: [
        { role: 'user', content: 'search' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'found' }] },
      ],
    });
    expect(messages(body)).toEqual([
      { role: 'user', content: 'search' },
      { role: 'assistant', content: 'found' },
    ]);
    expect(dropped).toContain('web_search_call items (hosted or dynamic tool records)');
  });

  it('items needing server state are refused: previous_response_id, item_reference, compaction, conversation', () => {
    expect(refusal({ previous_response_id: 'resp_1', input: 'x' })).toMatchObject({ field: 'previous_response_id' });
    expect(refusal({ previous_response_id: 'resp_1', input: 'x' }).message).toContain('no response store');
    expect(refusal({ conversation: 'conv_1', input: 'x' }).field).toBe('conversation');
    expect(refusal({ input: [{ type: 'item_reference', id: 'msg_1' }] }).field).toBe('input[0].type');
    expect(refusal({ input: [{ type: 'compaction', encrypted_content: 'e' }] }).field).toBe('input[0].type');
  });

  it('hosted tools codex does not send by default are refused naming the field', () => {
    for (const type of ['file_search', 'computer_use_preview', 'local_shell', 'code_interpreter', 'mcp']) {
      expect(refusal({ input: 'x', tools: [{ type: 'function', name: 'f' }, { type }] })).toMatchObject({
        field: 'tools[1].type',
      });
    }
  });

  it('tool_choice: auto/none/required pass, a named function or custom tool becomes a chat function choice', () => {
    const tools = [
      { type: 'function', name: 'f', parameters: { type: 'object', properties: {} } },
      { type: 'custom', name: 'apply_patch' },
    ];
    expect(translate({ input: 'x', tools, tool_choice: 'required' }).body.tool_choice).toBe('required');
    expect(translate({ input: 'x', tools, tool_choice: { type: 'function', name: 'f' } }).body.tool_choice).toEqual({
      type: 'function',
      function: { name: 'f' },
    });
    expect(
      translate({ input: 'x', tools, tool_choice: { type: 'custom', name: 'apply_patch' } }).body.tool_choice,
    ).toEqual({ type: 'function', function: { name: 'apply_patch' } });
    expect(refusal({ input: 'x', tools, tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] } }).field).toBe(
      'tool_choice',
    );
  });

  it('with every tool dropped, tools, tool_choice "auto" and parallel_tool_calls are left out; "required" is refused', () => {
    const only = { input: 'x', tools: [{ type: 'web_search' }], tool_choice: 'auto', parallel_tool_calls: true };
    const { body } = translate(only);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(refusal({ ...only, tool_choice: 'required' }).field).toBe('tool_choice');
  });

  it('sampling and limits: max_output_tokens → max_tokens, temperature, top_p, user; no stream → no stream_options', () => {
    const { body } = translate({ input: 'x', max_output_tokens: 256, temperature: 0.2, top_p: 0.9, user: 'u1' });
    expect(body).toMatchObject({ max_tokens: 256, temperature: 0.2, top_p: 0.9, user: 'u1' });
    expect(body).not.toHaveProperty('stream');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('reasoning.effort → reasoning_effort; xhigh (codex) is sent as high and noted', () => {
    expect(translate({ input: 'x', reasoning: { effort: 'low' } }).body.reasoning_effort).toBe('low');
    const xhigh = translate({ input: 'x', reasoning: { effort: 'xhigh' } });
    expect(xhigh.body.reasoning_effort).toBe('high');
    expect(xhigh.dropped).toContain('reasoning.effort xhigh (sent as high)');
  });

  it('text.format json_schema → response_format json_schema; json_object → json_object; text → nothing', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const { body } = translate({
      input: 'x',
      text: { format: { type: 'json_schema', name: 'out', schema, strict: true } },
    });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'out', schema, strict: true } });
    expect(translate({ input: 'x', text: { format: { type: 'json_object' } } }).body.response_format).toEqual({
      type: 'json_object',
    });
    expect(translate({ input: 'x', text: { format: { type: 'text' } } }).body).not.toHaveProperty('response_format');
  });

  it('ROUTE-3: background is left to the request path: neither refused nor sent upstream', () => {
    const { body, dropped } = translate({ input: 'x', background: true });
    expect(body).not.toHaveProperty('background');
    expect(dropped.join(' ')).not.toContain('background');
  });

  it('store: true, metadata and unknown fields are dropped and listed; store: false silently', () => {
    expect(translate({ input: 'x', store: false }).dropped).toEqual([]);
    const { body, dropped } = translate({ input: 'x', store: true, metadata: { a: '1' }, truncation: 'auto' });
    expect(dropped).toEqual(['store (Leeway keeps no response store)', 'metadata', 'truncation']);
    expect(body).not.toHaveProperty('metadata');
  });

  it('defer_loading function tools are sent up front (tool_search, which would load them, is dropped)', () => {
    const { body } = translate({
      input: 'x',
      tools: [{ type: 'function', name: 'late', defer_loading: true, parameters: { type: 'object', properties: {} } }],
    });
    expect(toolNames(body)).toEqual(['late']);
  });
});

describe('chatRequestFromResponses: additional_tools (codex 0.169 with its default model, issue 21 §10)', () => {
  it('issue 21 §10: the default model sends its tools only in an additional_tools input item: they become chat tools, and the item no message', () => {
    const request = responsesFixture('codex-request-responses-lite.json');
    expect(request).not.toHaveProperty('tools');
    const { body, dropped } = translate(request);
    expect(toolNames(body)).toEqual([
      'functions__exec',
      'functions__wait',
      'functions__request_user_input',
      'functions__request_user_input_async',
      'clock__sleep',
      'collaboration__followup_task',
      'collaboration__interrupt_agent',
      'collaboration__list_agents',
      'collaboration__send_message',
      'collaboration__spawn_agent',
      'collaboration__wait_agent',
    ]);
    // codex's code-mode `exec` is freeform (a lark grammar): one string `input`, the grammar described.
    const exec = (body.tools as Json[])[0]?.function as Json;
    expect(exec.parameters).toMatchObject({ required: ['input'] });
    expect(String(exec.description)).toMatch(/Run JavaScript code[\s\S]*It must match this lark grammar/);
    expect(body.tool_choice).toBe('auto');
    expect(body.parallel_tool_calls).toBe(false);
    // The item carries tools only: no message is made of it, and nothing of it is dropped.
    expect(messages(body).map((m) => m.role)).toEqual(['system', 'system', 'system', 'system', 'user', 'user']);
    expect(dropped.join('\n')).not.toContain('input[0]');
    expect(JSON.stringify(messages(body))).not.toContain('additional_tools');
  });

  it('issue 21 §10: Responses → Messages: the additional tools reach an Anthropic model as tools', () => {
    const { body } = translate(responsesFixture('codex-request-responses-lite.json'));
    const anthropic = messagesRequestFromChat(body, { model: 'claude-sonnet-4-6', reasoning: false });
    if (!anthropic.ok) throw new Error(`refused: ${anthropic.refusal.field}`);
    const tools = anthropic.body.tools as Json[];
    expect(tools.map((t) => t.name)).toEqual(toolNames(body));
    expect(tools[0]).toMatchObject({ name: 'functions__exec', input_schema: { required: ['input'] } });
    expect(anthropic.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('issue 21 §10: a follow-up after a namespaced exec call: the call keeps the name its additional tool was declared with', () => {
    const { body } = translate(responsesFixture('codex-request-responses-lite-exec-followup.json'));
    const assistant = messages(body).find((m) => Array.isArray(m.tool_calls));
    expect(assistant?.tool_calls).toEqual([
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'functions__exec', arguments: JSON.stringify({ input: 'text("EXEC_RAN_OK")' }) },
      },
    ]);
    expect(toolNames(body)).toContain('functions__exec');
    const tool = messages(body).find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 'call_1' });
    expect(String(tool?.content)).toContain('EXEC_RAN_OK');
  });

  it('issue 21 §10: tools added later in the conversation join the top-level ones; a later definition of a name replaces the earlier', () => {
    const fn = (name: string, description: string) => ({ type: 'function', name, description, parameters: {} });
    const { body, dropped } = translate({
      model: 'x',
      tools: [fn('read', 'v1'), fn('write', 'w')],
      input: [
        { role: 'user', content: 'hi' },
        { type: 'additional_tools', role: 'developer', tools: [fn('read', 'v2'), fn('mcp_lookup', 'm')] },
        { role: 'user', content: 'again' },
      ],
    });
    expect((body.tools as Json[]).map((t) => [(t.function as Json).name, (t.function as Json).description])).toEqual([
      ['read', 'v2'],
      ['write', 'w'],
      ['mcp_lookup', 'm'],
    ]);
    expect(dropped).toContain('tools[0] (replaced by input[1].tools[0], a later tool of the same name)');
    expect(messages(body)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('issue 21 §10: an additional tool a chat model cannot serve is refused naming its place in input; one without tools too', () => {
    expect(refusal({ model: 'x', input: [{ type: 'additional_tools', tools: [{ type: 'file_search' }] }] }).field).toBe(
      'input[0].tools[0].type',
    );
    expect(refusal({ model: 'x', input: [{ type: 'additional_tools' }] }).field).toBe('input[0].tools');
  });
});
