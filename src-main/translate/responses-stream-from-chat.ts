import { asArray, asNumber, asObject, asString, parseObject } from './json-narrow';
import { errorEventFields, responsesErrorOf } from './responses-error';
import {
  itemId,
  messageItem,
  outputTextPart,
  reasoningItem,
  responseEcho,
  responseId,
  responseObject,
  responsesUsage,
  statusOf,
  toolCallItem,
  type ResponseParts,
} from './responses-object';
import { customInput, declaredTools, resolveTool, responsesToolIndex, type ResponsesTool } from './responses-tools';
import { LONG_STRING, SharedJson } from './shared-json';
import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';

/**
 * `chat.completion.chunk` events → the Responses event stream, with `event:` = type and one
 * increasing `sequence_number`. Codex 0.169 needs `response.output_item.done` (the finished item:
 * that is what it prints and runs) and a terminal `response.completed` / `response.incomplete` /
 * `response.failed`; the deltas are for live display. The terminal event is sent on the chat
 * stream's `[DONE]` (usage arrives in a chunk after the finish reason), or at `end()` when a finish
 * reason was seen; a stream cut before either ends without one (the relay reports it).
 */

interface OpenText {
  outputIndex: number;
  id: string;
  text: string;
}

interface ToolCallState {
  outputIndex: number | null;
  id: string;
  callId: string | null;
  name: string;
  args: string;
  tool: ResponsesTool | null;
}

export const responsesStreamFromChat: StreamTranslatorFactory = (context) => new ResponsesStream(context);

class ResponsesStream implements StreamTranslator {
  private readonly echo: Json;
  private readonly id: string;
  private readonly toolIndex: Map<string, ResponsesTool>;
  private sequence = 0;
  private started = false;
  private terminal = false;
  private createdAt = 0;
  private finishReason: string | null = null;
  private usage: Json | null = null;
  /** Finished items by output index (the final `output`). */
  private readonly done = new Map<number, Json>();
  private nextIndex = 0;
  private reasoning: OpenText | null = null;
  private message: OpenText | null = null;
  private readonly calls = new Map<number, ToolCallState>();
  private out: SseOut[] = [];
  /** A finished text is repeated by up to five events: long strings are escaped once (shared-json.ts). */
  private readonly shared = new SharedJson();
  /** The longest text or arguments so far (a delta may be long too). */
  private longest = 0;

  constructor(private readonly context: ResponseContext) {
    this.echo = responseEcho(context);
    this.id = responseId(context);
    this.toolIndex = responsesToolIndex(declaredTools(context.request).tools);
  }

  push(event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    this.out = [];
    if (data.trim() === '[DONE]') {
      this.finish();
      return this.out;
    }
    const chunk = parseObject(data);
    if (!chunk) return [];
    if (chunk.error != null || event === 'error') {
      this.fail(chunk.error ?? chunk);
      return this.out;
    }
    this.start(asNumber(chunk.created));
    const choice = asObject(asArray(chunk.choices)?.[0]);
    const delta = asObject(choice?.delta);
    if (delta) this.delta(delta);
    const finish = asString(choice?.finish_reason);
    if (finish) this.finishReason = finish;
    const usage = responsesUsage(chunk.usage);
    if (usage) this.usage = usage;
    return this.out;
  }

  end(): SseOut[] {
    if (this.terminal || this.finishReason === null) return [];
    this.out = [];
    this.finish();
    return this.out;
  }

  private emit(type: string, fields: Json): void {
    const event = { type, ...fields, sequence_number: this.sequence++ };
    // Only once a text or arguments grew long: the usual small events take no replacer pass.
    if (this.longest < LONG_STRING) this.out.push({ event: type, data: JSON.stringify(event) });
    else this.out.push({ event: type, ...this.shared.stringify(event) });
  }

  private grew(length: number): void {
    if (length > this.longest) this.longest = length;
  }

  private snapshot(parts: Omit<ResponseParts, 'id' | 'createdAt' | 'output'>): Json {
    return responseObject(this.echo, {
      id: this.id,
      createdAt: this.createdAt,
      output: [...this.done.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item),
      ...parts,
    });
  }

  private start(created: number | null): void {
    if (this.started) return;
    this.started = true;
    if (created !== null) this.createdAt = created;
    const response = this.snapshot({ status: 'in_progress', usage: null });
    this.emit('response.created', { response });
    this.emit('response.in_progress', { response });
  }

  private delta(delta: Json): void {
    const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning);
    if (reasoning) this.reasoningDelta(reasoning);
    const text = (asString(delta.content) ?? '') + (asString(delta.refusal) ?? '');
    if (text !== '') this.textDelta(text);
    for (const fragment of asArray(delta.tool_calls) ?? []) {
      const call = asObject(fragment);
      if (call) this.toolDelta(call);
    }
  }

  private reasoningDelta(delta: string): void {
    this.closeMessage();
    if (!this.reasoning) {
      const outputIndex = this.nextIndex++;
      this.reasoning = { outputIndex, id: itemId('rs', this.context, outputIndex), text: '' };
      this.emit('response.output_item.added', {
        output_index: outputIndex,
        item: reasoningItem(this.reasoning.id, null),
      });
    }
    this.reasoning.text += delta;
    this.grew(this.reasoning.text.length);
    const { id, outputIndex } = this.reasoning;
    this.emit('response.reasoning_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta });
  }

  private textDelta(delta: string): void {
    this.closeReasoning();
    if (!this.message) {
      const outputIndex = this.nextIndex++;
      const id = itemId('msg', this.context, outputIndex);
      this.message = { outputIndex, id, text: '' };
      this.emit('response.output_item.added', {
        output_index: outputIndex,
        item: messageItem(id, 'in_progress', null),
      });
      this.emit('response.content_part.added', {
        item_id: id,
        output_index: outputIndex,
        content_index: 0,
        part: outputTextPart(''),
      });
    }
    this.message.text += delta;
    this.grew(this.message.text.length);
    const { id, outputIndex } = this.message;
    this.emit('response.output_text.delta', {
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  /** Fragments are keyed by the chat `index`: parallel calls may interleave. */
  private toolDelta(fragment: Json): void {
    this.closeReasoning();
    this.closeMessage();
    const key = asNumber(fragment.index) ?? 0;
    let call = this.calls.get(key);
    if (!call) {
      call = { outputIndex: null, id: '', callId: null, name: '', args: '', tool: null };
      this.calls.set(key, call);
    }
    const fn = asObject(fragment.function);
    call.callId ??= asString(fragment.id);
    const args = asString(fn?.arguments) ?? '';
    // The item is announced once its name is known; fragments before that are held.
    if (call.outputIndex === null) {
      call.name += asString(fn?.name) ?? '';
      call.args += args;
      this.grew(call.args.length);
      if (call.name !== '') this.openCall(call);
      return;
    }
    if (args === '') return;
    call.args += args;
    this.grew(call.args.length);
    if (call.tool?.kind === 'function') {
      this.emit('response.function_call_arguments.delta', {
        item_id: call.id,
        output_index: call.outputIndex,
        delta: args,
      });
    }
  }

  private openCall(call: ToolCallState): void {
    const outputIndex = this.nextIndex++;
    const tool = resolveTool(this.toolIndex, call.name);
    call.outputIndex = outputIndex;
    call.tool = tool;
    call.id = itemId(tool.kind === 'custom' ? 'ctc' : 'fc', this.context, outputIndex);
    call.callId ??= `call_${this.context.idSeed}_${outputIndex}`;
    this.emit('response.output_item.added', {
      output_index: outputIndex,
      item: toolCallItem(call.id, 'in_progress', tool, call.callId, ''),
    });
    // A custom tool's input is the `input` string inside the JSON arguments: sent whole when it is complete.
    if (tool.kind === 'function' && call.args !== '') {
      this.emit('response.function_call_arguments.delta', {
        item_id: call.id,
        output_index: outputIndex,
        delta: call.args,
      });
    }
  }

  private closeReasoning(): void {
    const open = this.reasoning;
    if (!open) return;
    this.reasoning = null;
    const { id, outputIndex, text } = open;
    this.emit('response.reasoning_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text });
    this.finishItem(outputIndex, reasoningItem(id, text));
  }

  private closeMessage(): void {
    const open = this.message;
    if (!open) return;
    this.message = null;
    const { id, outputIndex, text } = open;
    const position = { item_id: id, output_index: outputIndex, content_index: 0 };
    this.emit('response.output_text.done', { ...position, text, logprobs: [] });
    this.emit('response.content_part.done', { ...position, part: outputTextPart(text) });
    this.finishItem(outputIndex, messageItem(id, 'completed', text));
  }

  private closeCall(call: ToolCallState): void {
    if (call.outputIndex === null) this.openCall(call);
    const { outputIndex, tool, callId } = call;
    if (outputIndex === null || tool === null || callId === null) return;
    const position = { item_id: call.id, output_index: outputIndex };
    if (tool.kind === 'custom') {
      const input = customInput(call.args);
      if (input !== '') this.emit('response.custom_tool_call_input.delta', { ...position, delta: input });
      this.emit('response.custom_tool_call_input.done', { ...position, input });
      this.finishItem(outputIndex, toolCallItem(call.id, 'completed', tool, callId, input));
      return;
    }
    this.emit('response.function_call_arguments.done', { ...position, name: tool.name, arguments: call.args });
    this.finishItem(outputIndex, toolCallItem(call.id, 'completed', tool, callId, call.args));
  }

  private finishItem(outputIndex: number, item: Json): void {
    this.done.set(outputIndex, item);
    this.emit('response.output_item.done', { output_index: outputIndex, item });
  }

  private finish(): void {
    this.start(null);
    this.closeReasoning();
    this.closeMessage();
    for (const call of this.calls.values()) this.closeCall(call);
    this.calls.clear();
    this.terminal = true;
    const { status, incompleteReason } = statusOf(this.finishReason);
    const response = this.snapshot({ status, usage: this.usage, incompleteReason });
    this.emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
    this.shared.clear();
  }

  private fail(value: unknown): void {
    this.start(null);
    const error = responsesErrorOf(value);
    this.terminal = true;
    this.emit('error', errorEventFields(error));
    this.emit('response.failed', {
      response: this.snapshot({
        status: 'failed',
        usage: this.usage,
        error: { code: error.code, message: error.message },
      }),
    });
  }
}
