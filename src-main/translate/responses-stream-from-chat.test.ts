import { describe, expect, it } from 'vitest';
import { responsesStreamFromChat } from './responses-stream-from-chat';
import {
  chatChunk,
  itemOf,
  responseOf,
  responsesFixture,
  runStream,
  sse,
  sseFixtureEvents,
  type ClientEvent,
} from './responses.testkit';
import type { Json, ResponseContext } from './translate-types';

const codexRequest = responsesFixture('codex-request-fallback-model.json');
const patchTool = (responsesFixture('codex-request-gpt-5.5.json').tools as Json[]).find((t) => t.type === 'custom');
const CONTEXT: ResponseContext = {
  clientModel: 'my-combo',
  request: { ...codexRequest, tools: [...(codexRequest.tools as Json[]), patchTool] },
  idSeed: 's1',
};

function run(fixture: string, end = true): ClientEvent[] {
  return runStream(responsesStreamFromChat(CONTEXT), sseFixtureEvents(fixture), end);
}

function types(events: ClientEvent[]): string[] {
  return events.map((e) => e.type);
}

function expectWellFormed(events: ClientEvent[]): void {
  events.forEach((e, i) => {
    expect(e.event).toBe(e.type);
    expect(e.data.sequence_number).toBe(i);
  });
}

describe('responsesStreamFromChat', () => {
  it('reasoning then text: the whole event sequence, with the final text, items and usage', () => {
    const events = run('chat-stream-reasoning-text.sse');
    expectWellFormed(events);
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = responseOf(events[0] as ClientEvent);
    expect(created).toMatchObject({ id: 'resp_s1', status: 'in_progress', model: 'my-combo', output: [], usage: null });
    expect(events[9]?.data).toEqual({
      type: 'response.output_text.delta',
      item_id: 'msg_s1_1',
      output_index: 1,
      content_index: 0,
      delta: 'Hel',
      logprobs: [],
      sequence_number: 9,
    });
    expect(events[12]?.data.text).toBe('Hello, wörld 👋');
    const completed = responseOf(events[15] as ClientEvent);
    expect(completed.status).toBe('completed');
    expect(completed.output).toEqual([
      {
        id: 'rs_s1_0',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'The user wants a greeting.' }],
      },
      {
        id: 'msg_s1_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello, wörld 👋', annotations: [], logprobs: [] }],
      },
    ]);
    expect(completed.usage).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 150,
    });
  });

  it('parallel tool calls with interleaved fragments: one function_call item per chat index, arguments in order', () => {
    const events = run('chat-stream-parallel-tools.sse');
    expectWellFormed(events);
    const added = events.filter((e) => e.type === 'response.output_item.added').map(itemOf);
    expect(added.map((item) => [item.type, item.status])).toEqual([
      ['message', 'in_progress'],
      ['function_call', 'in_progress'],
      ['function_call', 'in_progress'],
    ]);
    expect(added[1]).toMatchObject({ id: 'fc_s1_1', call_id: 'call_A', name: 'exec_command', arguments: '' });
    const deltas = (itemId: string) =>
      events
        .filter((e) => e.type === 'response.function_call_arguments.delta' && e.data.item_id === itemId)
        .map((e) => String(e.data.delta));
    expect(deltas('fc_s1_1')).toEqual(['{"cmd":"ls', ' -la"}']);
    expect(deltas('fc_s1_2')).toEqual(['{"cmd"', ':"pwd"}']);
    // The message is finished before the first call starts.
    const messageDone = types(events).indexOf('response.output_text.done');
    expect(messageDone).toBeLessThan(types(events).indexOf('response.function_call_arguments.delta'));
    const argsDone = events.filter((e) => e.type === 'response.function_call_arguments.done').map((e) => e.data);
    expect(argsDone).toEqual([
      expect.objectContaining({
        item_id: 'fc_s1_1',
        output_index: 1,
        name: 'exec_command',
        arguments: '{"cmd":"ls -la"}',
      }),
      expect.objectContaining({
        item_id: 'fc_s1_2',
        output_index: 2,
        name: 'exec_command',
        arguments: '{"cmd":"pwd"}',
      }),
    ]);
    const completed = responseOf(events[events.length - 1] as ClientEvent);
    expect(events[events.length - 1]?.type).toBe('response.completed');
    expect(
      (completed.output as Json[]).map((item) => [item.type, item.call_id ?? null, item.arguments ?? null]),
    ).toEqual([
      ['message', null, null],
      ['function_call', 'call_A', '{"cmd":"ls -la"}'],
      ['function_call', 'call_B', '{"cmd":"pwd"}'],
    ]);
  });

  it('a freeform tool comes back as custom_tool_call with its raw input; a namespaced one with namespace + bare name', () => {
    const events = run('chat-stream-custom-namespace.sse');
    expectWellFormed(events);
    const done = events.filter((e) => e.type === 'response.output_item.done').map(itemOf);
    expect(done).toEqual([
      {
        id: 'ctc_s1_0',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_P',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n',
      },
      {
        id: 'fc_s1_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_N',
        name: 'wait_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"targets":["a1"]}',
      },
    ]);
    expect(events.find((e) => e.type === 'response.custom_tool_call_input.done')?.data).toMatchObject({
      item_id: 'ctc_s1_0',
      input: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n',
    });
    // The custom tool's JSON wrapper never reaches the client as argument deltas.
    expect(
      events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.data.item_id),
    ).toEqual(['fc_s1_1']);
  });

  it('finish_reason length → response.incomplete with reason max_output_tokens', () => {
    const events = run('chat-stream-length.sse');
    const last = events[events.length - 1] as ClientEvent;
    expect(last.type).toBe('response.incomplete');
    expect(responseOf(last)).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(types(events)).not.toContain('response.completed');
  });

  it('an upstream error chunk → an error event then response.failed; later chunks and end() add nothing', () => {
    const translator = responsesStreamFromChat(CONTEXT);
    const events = runStream(translator, sseFixtureEvents('chat-stream-error.sse'));
    expectWellFormed(events);
    expect(types(events).slice(-2)).toEqual(['error', 'response.failed']);
    expect(events[events.length - 2]?.data).toMatchObject({
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached for requests',
    });
    expect(responseOf(events[events.length - 1] as ClientEvent)).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' },
    });
    expect(translator.push(null, JSON.stringify(chatChunk({ content: 'more' })))).toEqual([]);
    expect(translator.end()).toEqual([]);
  });

  it('a stream cut before any finish: end() returns nothing terminal (the relay reports it)', () => {
    const translator = responsesStreamFromChat(CONTEXT);
    const before = runStream(translator, sseFixtureEvents('chat-stream-no-terminal.sse'), false);
    expect(types(before)).toContain('response.output_text.delta');
    expect(translator.end()).toEqual([]);
  });

  it('a finish reason without [DONE]: end() closes the items and sends response.completed', () => {
    const translator = responsesStreamFromChat(CONTEXT);
    const events = runStream(translator, [sse(chatChunk({ content: 'hi' })), sse(chatChunk({}, 'stop'))], true);
    expectWellFormed(events);
    expect(types(events).slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(responseOf(events[events.length - 1] as ClientEvent).usage).toBeNull();
  });

  it('[DONE] as the first event still makes a complete, empty response', () => {
    const events = runStream(responsesStreamFromChat(CONTEXT), [sse('[DONE]')]);
    expect(types(events)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(responseOf(events[2] as ClientEvent).output).toEqual([]);
  });

  it('a tool call whose name arrives after its first fragment is announced once named, arguments kept', () => {
    const events = runStream(responsesStreamFromChat(CONTEXT), [
      sse(chatChunk({ tool_calls: [{ index: 0, id: 'call_late', function: { arguments: '{"cmd":' } }] })),
      sse(chatChunk({ tool_calls: [{ index: 0, function: { name: 'exec_command', arguments: '"x"}' } }] })),
      sse(chatChunk({}, 'tool_calls')),
      sse('[DONE]'),
    ]);
    const added = events.find((e) => e.type === 'response.output_item.added');
    expect(added && itemOf(added)).toMatchObject({ name: 'exec_command', call_id: 'call_late' });
    expect(events.find((e) => e.type === 'response.function_call_arguments.done')?.data.arguments).toBe('{"cmd":"x"}');
  });

  it('error codes: a gateway status in `code` and a bare string error are read too', () => {
    const rateLimited = runStream(responsesStreamFromChat(CONTEXT), [
      sse({ error: { code: 429, message: 'slow down' } }),
    ]);
    expect(rateLimited.find((e) => e.type === 'error')?.data).toMatchObject({ code: 'rate_limit_exceeded' });
    const bare = runStream(responsesStreamFromChat(CONTEXT), [sse({ error: 'it broke' })]);
    expect(bare.find((e) => e.type === 'error')?.data).toMatchObject({ code: 'server_error', message: 'it broke' });
  });

  it('an `event: error` upstream event is an error too', () => {
    const events = runStream(responsesStreamFromChat(CONTEXT), [
      { event: 'error', data: JSON.stringify({ message: 'boom', type: 'overloaded_error' }) },
    ]);
    expect(types(events)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(events[2]?.data).toMatchObject({ code: 'server_is_overloaded', message: 'boom' });
  });
});

describe('responsesStreamFromChat: tools declared in additional_tools (issue 21 §10)', () => {
  it('issue 21 §10: a call to a tool of an additional_tools namespace comes back as the kind declared, with namespace and bare name', () => {
    const request = responsesFixture('codex-request-responses-lite.json');
    const events = runStream(responsesStreamFromChat({ clientModel: 'gpt-6.1-sol', request, idSeed: 's2' }), [
      sse(chatChunk({ role: 'assistant', content: '' })),
      sse(
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_X',
              type: 'function',
              function: { name: 'functions__exec', arguments: '{"input":"text(1)"}' },
            },
          ],
        }),
      ),
      sse(
        chatChunk({
          tool_calls: [
            {
              index: 1,
              id: 'call_S',
              type: 'function',
              function: { name: 'clock__sleep', arguments: '{"duration_ms":5}' },
            },
          ],
        }),
      ),
      sse(chatChunk({}, 'tool_calls')),
      sse('[DONE]'),
    ]);
    const done = events.filter((e) => e.type === 'response.output_item.done').map(itemOf);
    expect(done).toEqual([
      {
        id: 'ctc_s2_0',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_X',
        name: 'exec',
        namespace: 'functions',
        input: 'text(1)',
      },
      {
        id: 'fc_s2_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_S',
        name: 'sleep',
        namespace: 'clock',
        arguments: '{"duration_ms":5}',
      },
    ]);
  });
});

describe('responsesStreamFromChat: a long text (issue 21 §2)', () => {
  it('issue 21 §2: the events repeating a long text are the same JSON, built around one escaped copy of it', () => {
    const text = 'é"\\'.repeat(40_000);
    const events = responsesStreamFromChat({ clientModel: 'm', request: {}, idSeed: 's4' });
    const out = [
      ...events.push(null, JSON.stringify(chatChunk({ role: 'assistant', content: '' }))),
      ...events.push(null, JSON.stringify(chatChunk({ content: text }))),
      ...events.push(null, JSON.stringify(chatChunk({}, 'stop'))),
      ...events.push(null, '[DONE]'),
    ];
    const escaped = JSON.stringify(text);
    const carrying = out.filter((e) => e.pieces !== undefined);
    expect(carrying.map((e) => e.event)).toEqual([
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const shared = carrying.map((e) => e.pieces?.find((p) => p.length >= escaped.length));
    for (const piece of shared) expect(Object.is(piece, shared[0])).toBe(true);
    expect(shared[0]).toBe(escaped);
    for (const e of carrying) expect(e.pieces?.join('')).toBe(e.data);
    const done = out.find((e) => e.event === 'response.output_item.done');
    expect(JSON.parse(done?.data ?? '{}')).toMatchObject({ item: { content: [{ text }] } });
  });
});
