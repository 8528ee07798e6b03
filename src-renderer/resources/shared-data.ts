import type { ResourceSpec } from './resource';

/*
 * The data several tabs read, each kept current by the event that carries it (no re-read needed).
 * Data one tab alone reads is declared beside that tab (routes, sessions, quota, overview, …).
 */

/** The proxy itself: URL, version, paused, storage health. */
export const APP_INFO: ResourceSpec<'app.info'> = {
  method: 'app.info',
  events: {
    'app.paused': ({ paused }, info) => info && { ...info, paused },
    'storage.changed': ({ storage }, info) => info && { ...info, storage },
  },
};

/** Upstream connections, secrets already reduced to hints. */
export const CONNECTIONS: ResourceSpec<'connections.list'> = {
  method: 'connections.list',
  events: { 'connections.changed': ({ connections }) => connections },
};

export const KEYS: ResourceSpec<'keys.list'> = {
  method: 'keys.list',
  events: { 'keys.changed': ({ keys }) => keys },
};

export const COMBOS: ResourceSpec<'combos.list'> = {
  method: 'combos.list',
  events: { 'combos.changed': ({ combos }) => combos },
};

/** Everything keeping a target from serving (COOL-2, BRK, PROV-9, LOCK-7), with the core's `now`. */
export const COOLDOWNS: ResourceSpec<'cooldowns.list'> = {
  method: 'cooldowns.list',
  events: { 'cooldowns.changed': ({ snapshot }) => snapshot },
};

export const PROXY_SETTINGS: ResourceSpec<'settings.get'> = {
  method: 'settings.get',
  events: { 'settings.changed': ({ settings }) => settings },
};

export const RESILIENCE_SETTINGS: ResourceSpec<'resilience.getSettings'> = {
  method: 'resilience.getSettings',
  events: { 'resilience.settingsChanged': ({ settings }) => settings },
};

/** Usage windows, low-priority lane and last limit reset of each Claude subscription connection. */
export const CLAUDE_STATUS: ResourceSpec<'claude.status'> = {
  method: 'claude.status',
  events: { 'claude.changed': ({ status }) => status },
};
