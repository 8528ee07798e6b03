/**
 * A "Claude Code-shaped" Messages request body, generated deterministically (same bytes every run):
 * a long system prompt in cache_control text blocks, 24 tool definitions with JSON schemas and
 * 20 alternating turns with tool_use / tool_result blocks — about 70 KB, like a mid-session request
 * of the Claude Code CLI. Only the shape matters to a proxy (size, nesting, string escapes).
 */

/** Small LCG: deterministic "random" choices without a dependency. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = (
  'the agent must read files before editing them and keep changes small prefer existing helpers ' +
  'run the tests after each change never commit secrets use absolute paths when calling tools ' +
  'explain briefly what you changed and why respect the repository conventions typescript strict ' +
  'mode no any casts handle errors at the boundary stream output when possible keep functions pure'
).split(' ');

function prose(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const word = WORDS[Math.floor(next() * WORDS.length)] ?? 'the';
    out.push(i % 17 === 16 ? `${word}.\n` : word);
  }
  return out.join(' ');
}

const TOOL_NAMES = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Task',
  'ExitPlanMode',
  'BashOutput',
  'KillShell',
  'SlashCommand',
  'mcp__git__status',
  'mcp__git__diff',
  'mcp__git__log',
  'mcp__fs__tree',
  'mcp__fs__stat',
  'mcp__http__get',
];

function tool(next: () => number, name: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const fields = 3 + Math.floor(next() * 4);
  for (let f = 0; f < fields; f++) {
    properties[`param_${f}`] =
      f % 3 === 2
        ? { type: 'array', items: { type: 'string' }, description: prose(next, 12) }
        : f % 3 === 1
          ? { type: 'number', minimum: 0, description: prose(next, 10) }
          : { type: 'string', description: prose(next, 14) };
  }
  return {
    name,
    description: prose(next, 60),
    input_schema: {
      type: 'object',
      properties,
      required: ['param_0'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
}

/** A source-file-looking tool result: quotes, backslashes and newlines, so JSON escaping is exercised. */
function fileText(next: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(`${String(i + 1).padStart(4)}\t  const v${i} = "${prose(next, 4)}"; // \\ ${prose(next, 3)}`);
  }
  return out.join('\n');
}

/** The body object (model and stream as given); about 70 KB once serialised. */
export function claudeCodeBody(model: string, stream: boolean): Record<string, unknown> {
  const next = rng(0x5eed);
  const system = [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: prose(next, 3000), cache_control: { type: 'ephemeral' } },
  ];
  const tools = TOOL_NAMES.map((name) => tool(next, name));
  const messages: Record<string, unknown>[] = [];
  for (let turn = 0; turn < 20; turn++) {
    const id = `toolu_${String(turn).padStart(2, '0')}${Math.floor(next() * 1e12).toString(36)}`;
    if (turn % 2 === 0) {
      const content: Record<string, unknown>[] = [];
      if (turn > 0) content.push({ type: 'tool_result', tool_use_id: `prev_${turn}`, content: fileText(next, 22) });
      content.push({ type: 'text', text: prose(next, 40) });
      messages.push({ role: 'user', content });
    } else {
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: prose(next, 30) },
          {
            type: 'tool_use',
            id,
            name: TOOL_NAMES[turn % TOOL_NAMES.length],
            input: { param_0: `/work/src/file-${turn}.ts`, param_1: turn * 10 },
          },
        ],
      });
    }
  }
  // The last turn is the user's, as in every real request.
  messages.push({ role: 'user', content: [{ type: 'text', text: prose(next, 25) }] });
  return {
    model,
    max_tokens: 32_000,
    ...(stream ? { stream: true } : {}),
    metadata: { user_id: 'user_bench_account__session_0000' },
    system,
    tools,
    messages,
  };
}
