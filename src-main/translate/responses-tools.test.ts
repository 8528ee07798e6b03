import { describe, expect, it } from 'vitest';
import { chatToolName, chatToolsFromResponses, customInput, resolveTool, responsesToolIndex } from './responses-tools';
import type { Json } from './translate-types';

describe('responses-tools', () => {
  it('the index maps flattened chat names back to kind, bare name and namespace', () => {
    const index = responsesToolIndex([
      { type: 'function', name: 'exec_command' },
      { type: 'custom', name: 'apply_patch' },
      {
        type: 'namespace',
        name: 'mcp',
        tools: [
          { type: 'function', name: 'search' },
          { type: 'custom', name: 'sql' },
        ],
      },
      { type: 'web_search' },
    ]);
    expect(resolveTool(index, 'exec_command')).toEqual({ kind: 'function', name: 'exec_command', namespace: null });
    expect(resolveTool(index, 'apply_patch')).toEqual({ kind: 'custom', name: 'apply_patch', namespace: null });
    expect(resolveTool(index, 'mcp__search')).toEqual({ kind: 'function', name: 'search', namespace: 'mcp' });
    expect(resolveTool(index, 'mcp__sql')).toEqual({ kind: 'custom', name: 'sql', namespace: 'mcp' });
    expect(resolveTool(index, 'other')).toEqual({ kind: 'function', name: 'other', namespace: null });
  });

  it('a top-level tool wins over a namespaced one flattening to the same name', () => {
    const index = responsesToolIndex([
      { type: 'namespace', name: 'a', tools: [{ type: 'function', name: 'b' }] },
      { type: 'function', name: 'a__b' },
    ]);
    expect(resolveTool(index, 'a__b')).toEqual({ kind: 'function', name: 'a__b', namespace: null });
  });

  it('namespaced names are made legal for chat (≤ 64 of [a-zA-Z0-9_-]) and still map back', () => {
    const namespace = 'mcp.server-with-a-really-long-name-that-goes-on';
    const name = 'list_every_single_repository_issue';
    const flat = chatToolName(namespace, name);
    expect(flat).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(flat).not.toBe(chatToolName(namespace, `${name}2`));
    const index = responsesToolIndex([{ type: 'namespace', name: namespace, tools: [{ type: 'function', name }] }]);
    expect(resolveTool(index, flat)).toEqual({ kind: 'function', name, namespace });
    expect(chatToolName('multi_agent_v1', 'spawn_agent')).toBe('multi_agent_v1__spawn_agent');
  });

  it('customInput unwraps {"input"} and keeps anything else as the raw input', () => {
    expect(customInput('{"input":"*** Begin Patch\\n"}')).toBe('*** Begin Patch\n');
    expect(customInput('*** Begin Patch')).toBe('*** Begin Patch');
    expect(customInput('{"other":1}')).toBe('{"other":1}');
  });

  it('a custom tool with a text format gets no grammar note; namespaced custom tools are flattened', () => {
    const out = chatToolsFromResponses([
      { type: 'custom', name: 'note', description: 'Write a note.', format: { type: 'text' } },
      { type: 'namespace', name: 'ns', tools: [{ type: 'custom', name: 'raw' }] },
    ]);
    if (!out.ok) throw new Error(out.refusal.field);
    const fns = out.tools.map((t) => t.function as Json);
    expect(fns.map((f) => [f.name, f.description])).toEqual([
      ['note', 'Write a note.'],
      ['ns__raw', ''],
    ]);
  });

  it('a tool inside a namespace that is not a function or custom tool is refused with its path', () => {
    const out = chatToolsFromResponses([{ type: 'namespace', name: 'ns', tools: [{ type: 'file_search' }] }]);
    expect(out).toEqual({
      ok: false,
      refusal: { field: 'tools[0].tools[0].type', message: expect.any(String) as string },
    });
  });
});
