import { fail, ok } from '../../src-shared/contract/errors';
import type { AgentId, AgentSetupChange, AgentSetupStatus } from '../../src-shared/domain/agent-setup';
import type { FakeHandlers } from './fake-handlers';
import type { FakeState } from './fake-state';

type AgentMethods = Pick<
  FakeHandlers,
  'setup.agents.list' | 'setup.agent.preview' | 'setup.agent.apply' | 'setup.agent.undo' | 'setup.agent.snippet'
>;

/** The agents' setup as tiny state changes: Apply marks one configured with a backup, Undo takes it back. */
export function createFakeAgentSetup(state: FakeState, now: () => number): AgentMethods {
  const find = (agent: AgentId): AgentSetupStatus | undefined => state.agents.find((a) => a.agent === agent);
  const update = (agent: AgentId, patch: Partial<AgentSetupStatus>): void => {
    state.agents = state.agents.map((a) => (a.agent === agent ? { ...a, ...patch } : a));
  };
  const change = (agent: AgentId): AgentSetupChange => ({
    agent,
    files: (find(agent)?.paths ?? []).map((path) => ({
      path,
      exists: false,
      diff: [{ kind: 'added', text: `leeway = "${state.info.proxyUrl}"` }],
      changes: true,
    })),
    changes: true,
    note: find(agent)?.note ?? '',
  });
  return {
    'setup.agents.list': () => ok(state.agents),
    'setup.agent.preview': ({ agent }) => ok(change(agent)),
    'setup.agent.apply': ({ agent }) => {
      const paths = find(agent)?.paths ?? [];
      const files = paths.map((path) => ({ path, backupPath: `${path}.leeway-backup-1.absent`, removesFile: true }));
      update(agent, { state: 'configured', backup: { at: now(), files } });
      return ok({ ...change(agent), backups: files.map((f) => f.backupPath) });
    },
    'setup.agent.undo': ({ agent }) => {
      const backup = find(agent)?.backup;
      if (!backup) return fail('not_found', `No Leeway backup of ${agent}'s files to restore`);
      update(agent, { state: 'not-configured', backup: null });
      return ok({
        agent,
        restored: backup.files.map((f) => ({ path: f.path, restoredFrom: f.backupPath, removedFile: f.removesFile })),
      });
    },
    'setup.agent.snippet': ({ agent, authToken }) =>
      ok({
        agent,
        title: agent,
        target: find(agent)?.paths[0] ?? '',
        text: `key = ${authToken ?? '<your-leeway-key>'}`,
      }),
  };
}
