import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import {
  claudeSettingsPath,
  claudeSettingsStatus,
  describeChange,
  planClaudeSettings,
  readClaudeSettings,
  undoClaudeSettings,
  writeClaudeSettings,
} from './setup-claude-settings';

type SetupHandlers = Pick<
  Handlers,
  'setup.claudeCodePreview' | 'setup.configureClaudeCode' | 'setup.undoClaudeCode' | 'setup.claudeCodeStatus'
>;

/**
 * Client setup in one click (issue 13 §6): preview, write and undo Claude Code's settings.json env
 * block, found through the HOME / CLAUDE_CONFIG_DIR the entry read when Leeway started.
 */
export function setupHandlers(deps: HandlerDeps): SetupHandlers {
  const env = () => deps.env;
  const plan = (authToken: string) => {
    // Only a live local key: a typo or a revoked key would leave Claude Code answering 401.
    if (!deps.keys.verify(authToken))
      return fail('invalid_input', 'That is not a Leeway local key (or it was revoked); create one in the Keys tab');
    const path = claudeSettingsPath(env());
    const current = readClaudeSettings(path);
    if (!current.ok) return current;
    const planned = planClaudeSettings(current.value, { baseUrl: deps.info().proxyUrl, authToken });
    if (!planned.ok) return planned;
    return ok({ path, current: current.value, ...planned.value });
  };
  return {
    'setup.claudeCodePreview': ({ authToken }) => {
      const p = plan(authToken);
      return p.ok ? ok(describeChange(p.value.path, p.value.current, p.value.next, p.value.removed)) : p;
    },
    'setup.configureClaudeCode': ({ authToken }) => {
      const p = plan(authToken);
      if (!p.ok) return p;
      const { path, current, next, removed } = p.value;
      const change = describeChange(path, current, next, removed);
      if (!change.changes) return ok({ ...change, backupPath: null });
      const written: Result<string> = writeClaudeSettings(path, current, next, deps.now());
      return written.ok ? ok({ ...change, backupPath: written.value }) : written;
    },
    'setup.undoClaudeCode': () => undoClaudeSettings(claudeSettingsPath(env())),
    // The backups are on disk, so a reloaded page can still offer Undo (issue 21 §17).
    'setup.claudeCodeStatus': () => ok(claudeSettingsStatus(claudeSettingsPath(env()), deps.info().proxyUrl)),
  };
}
