import type { MethodName } from '../../src-shared/contract/methods';

/**
 * Which reads each write changes: after a successful action these resources are re-read, so the
 * view shows the outcome even before (or without) the core's event. Methods that only read have
 * no entry. One table, so a new write states its effects in one place.
 */
export const INVALIDATES: { readonly [M in MethodName]?: readonly MethodName[] } = {
  'app.setPaused': ['app.info'],
  'connections.upsert': ['connections.list', 'cooldowns.list', 'quota.listPlans'],
  'connections.remove': ['connections.list', 'cooldowns.list', 'quota.listPlans'],
  'connections.rename': [
    'connections.list',
    'combos.list',
    'keys.list',
    'routes.list',
    'sessions.list',
    'leases.list',
    'quota.listPools',
    'quota.listPlans',
    'cooldowns.list',
  ],
  'connections.reset': ['cooldowns.list', 'connections.list'],
  'connections.test': ['models.discovered', 'connections.list'],
  'cooldowns.clear': ['cooldowns.list'],
  'held.act': ['held.list', 'sessions.list', 'leases.list'],
  'cooldowns.probe': ['cooldowns.list'],
  'resilience.reset': ['cooldowns.list'],
  'keys.create': ['keys.list'],
  'keys.revoke': ['keys.list', 'quota.listPools'],
  'keys.rename': ['keys.list', 'quota.listPools', 'sessions.list', 'leases.list'],
  'combos.upsert': ['combos.list'],
  'combos.remove': ['combos.list'],
  'combos.rename': ['combos.list', 'routes.list'],
  'routes.replace': ['routes.list'],
  'sessions.clear': ['sessions.list', 'leases.list'],
  'leases.clear': ['sessions.list', 'leases.list'],
  'settings.update': ['settings.get', 'app.info', 'quota.storeStatus'],
  'resilience.updateSettings': ['resilience.getSettings'],
  'claude.importCredentials': ['claude.status', 'connections.list', 'cooldowns.list'],
  'quota.upsertPool': ['quota.listPools'],
  'quota.removePool': ['quota.listPools'],
  'quota.setPlan': ['quota.listPlans', 'quota.listPools'],
  'quota.removePlan': ['quota.listPlans', 'quota.listPools'],
  'setup.configureClaudeCode': ['setup.claudeCodeStatus'],
  'setup.undoClaudeCode': ['setup.claudeCodeStatus'],
  'setup.agent.apply': ['setup.agents.list'],
  'setup.agent.undo': ['setup.agents.list'],
};
