import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type {
  ClaudeCodeSettingsChange,
  ClaudeCodeSetupResult,
  ClaudeCodeSetupStatus,
  ClaudeCodeUndoResult,
  DiscoveredModelsView,
  MethodName,
  MethodOutput,
  MethodParsedInput,
} from '../../../src-shared/contract/methods';
import { methods } from '../../../src-shared/contract/methods';
import type { Transport } from '../../api/transport';

type SetupMethod =
  | 'models.discovered'
  | 'setup.claudeCodePreview'
  | 'setup.configureClaudeCode'
  | 'setup.undoClaudeCode'
  | 'setup.claudeCodeStatus';
type Handler<M extends MethodName> = (input: MethodParsedInput<M>) => Result<MethodOutput<M>>;
export type FakeSetupHandlers = { [M in SetupMethod]: Handler<M> };

/** What the fake core knows of discovery and of Claude Code's settings file; tests may seed and read it. */
export interface FakeSetupState {
  discovered: DiscoveredModelsView[];
  /** settings.json as the fake "disk" holds it; null: no file. */
  settings: string | null;
  backups: (string | null)[];
}

const PATH = '/home/user/.claude/settings.json';

export function createFakeSetupState(seed: Partial<FakeSetupState> = {}): FakeSetupState {
  return { discovered: [], settings: null, backups: [], ...seed };
}

function nextSettings(current: string | null, proxyUrl: string): string {
  const parsed = current === null ? {} : (JSON.parse(current) as { env?: Record<string, string> });
  const env = { ...(parsed.env ?? {}) };
  delete env.ANTHROPIC_API_KEY;
  const next = {
    ...parsed,
    env: {
      ...env,
      ANTHROPIC_BASE_URL: proxyUrl,
      ANTHROPIC_AUTH_TOKEN: 'lw-…',
      CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
    },
  };
  return `${JSON.stringify(next, null, 2)}\n`;
}

function change(state: FakeSetupState, proxyUrl: string): ClaudeCodeSettingsChange {
  const next = nextSettings(state.settings, proxyUrl);
  const before = state.settings === null ? [] : state.settings.split('\n');
  const after = next.split('\n');
  return {
    path: PATH,
    exists: state.settings !== null,
    env: {
      ANTHROPIC_BASE_URL: proxyUrl,
      ANTHROPIC_AUTH_TOKEN: 'lw-…',
      CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
    },
    removed: state.settings?.includes('ANTHROPIC_API_KEY') ? ['ANTHROPIC_API_KEY'] : [],
    // A crude diff is enough for the UI: old lines out, new lines in, shared lines kept.
    diff: [
      ...before.filter((l) => !after.includes(l)).map((text) => ({ kind: 'removed' as const, text })),
      ...after.map((text) => ({ kind: before.includes(text) ? ('same' as const) : ('added' as const), text })),
    ],
    changes: state.settings !== next,
  };
}

/** The contract's setup and discovery methods over memory, like the core's (no disk, no upstream). */
export function createFakeSetupHandlers(state: FakeSetupState, proxyUrl: () => string): FakeSetupHandlers {
  const keyCheck = (token: string): Result<never> | null =>
    token.startsWith('lw-') ? null : fail('invalid_input', 'That is not a Leeway local key (or it was revoked)');
  return {
    'models.discovered': (input) =>
      ok(state.discovered.filter((d) => input?.connection === undefined || d.connection === input.connection)),
    'setup.claudeCodePreview': ({ authToken }) => keyCheck(authToken) ?? ok(change(state, proxyUrl())),
    'setup.configureClaudeCode': ({ authToken }) => {
      const refused = keyCheck(authToken);
      if (refused) return refused;
      const c = change(state, proxyUrl());
      if (!c.changes) return ok<ClaudeCodeSetupResult>({ ...c, backupPath: null });
      state.backups.push(state.settings);
      state.settings = nextSettings(state.settings, proxyUrl());
      return ok<ClaudeCodeSetupResult>({ ...c, backupPath: `${PATH}.leeway-backup-${state.backups.length}` });
    },
    // Like the core, from what is "on disk": the backups outlive the page.
    'setup.claudeCodeStatus': () =>
      ok<ClaudeCodeSetupStatus>({
        path: PATH,
        configured: state.settings?.includes(`"ANTHROPIC_BASE_URL": "${proxyUrl()}"`) ?? false,
        backup:
          state.backups.length === 0
            ? null
            : {
                path: `${PATH}.leeway-backup-${state.backups.length}`,
                at: state.backups.length,
                removesFile: state.backups.at(-1) === null,
              },
      }),
    'setup.undoClaudeCode': () => {
      if (state.backups.length === 0) return fail('not_found', `No Leeway backup of ${PATH} to restore`);
      const at = state.backups.length;
      const previous = state.backups.pop() ?? null;
      state.settings = previous;
      return ok<ClaudeCodeUndoResult>({
        path: PATH,
        restoredFrom: `${PATH}.leeway-backup-${at}`,
        removedFile: previous === null,
      });
    },
  };
}

const SETUP_METHODS: readonly string[] = [
  'models.discovered',
  'setup.claudeCodePreview',
  'setup.configureClaudeCode',
  'setup.undoClaudeCode',
  'setup.claudeCodeStatus',
] satisfies SetupMethod[];

const isSetupMethod = (method: MethodName): method is SetupMethod => SETUP_METHODS.includes(method);

/**
 * For component tests (until the shared fake core answers these methods itself): a transport that
 * answers the setup and discovery methods from `state`, validating input like the router, and hands
 * everything else to `inner`.
 */
export function withFakeSetup(state: FakeSetupState, proxyUrl = 'http://127.0.0.1:7431') {
  const handlers = createFakeSetupHandlers(state, () => proxyUrl);
  return (inner: Transport): Transport => ({
    ...inner,
    call: async (method, input) => {
      if (!isSetupMethod(method)) return inner.call(method, input);
      const parsed = methods[method].input.safeParse(input ?? undefined);
      if (!parsed.success) return fail('invalid_input', parsed.error.issues.map((i) => i.message).join('; '));
      const handler = handlers[method] as (value: unknown) => Result<unknown>;
      return handler(parsed.data);
    },
  });
}
