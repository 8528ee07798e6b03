/**
 * Which tool the fake upstream calls, and with what input, given the tools the client offered: a
 * real client's own tool (Claude Code's Glob, codex's exec_command) so it runs the call and sends
 * the input back next turn, else the suite's `conformance_lookup`. Inputs are long enough to be cut
 * into many fragments and hold escapes, non-ASCII text, numbers, arrays, booleans and null.
 */
import { field } from '../../fake-upstream-plans';

export interface ToolChoice {
  name: string;
  input: Record<string, unknown>;
}

/** The suite's own tool, for SDK checks. */
export const LOOKUP_TOOL = {
  name: 'conformance_lookup',
  description: 'Looks something up (conformance suite).',
} as const;

/** Names of the tools a request offers (Messages `name`, Chat `function.name`, Responses `name`). */
export function offeredTools(body: unknown): string[] {
  const tools = field(body, 'tools');
  if (!Array.isArray(tools)) return [];
  return tools
    .map((tool) => field(tool, 'name') ?? field(field(tool, 'function'), 'name'))
    .filter((name): name is string => typeof name === 'string');
}

export function lookupInput(nonce: string): Record<string, unknown> {
  return {
    query: `conformance ${nonce}: "quoted", back\\slash, tab\tand newline\n, ünïcödé ✓, {braces} [brackets]`,
    path: 'src/ünïcødé/file name.ts',
    lines: [1, 22, 333, -4.5, 6e3],
    options: { recursive: true, follow: false, depth: null, exclude: ['node_modules', '.git'] },
    nonce,
  };
}

/** The call to make for a request offering `offered` tools. */
export function chooseTool(offered: readonly string[], nonce: string): ToolChoice {
  if (offered.includes('exec_command')) {
    // codex runs it in its sandbox; the output goes back as function_call_output.
    return { name: 'exec_command', input: { cmd: `echo 'conformance ${nonce} ünïcödé {"a":[1,2]} \\ done'` } };
  }
  if (offered.includes('Read')) {
    // Read-only, so Claude Code runs it in -p mode without asking; the file is missing, which is fine.
    return {
      name: 'Read',
      input: { file_path: `/nonexistent/conformance-${nonce}/ünïcödé "quoted" {a,b}.ts`, offset: 12, limit: 345 },
    };
  }
  return { name: LOOKUP_TOOL.name, input: lookupInput(nonce) };
}
