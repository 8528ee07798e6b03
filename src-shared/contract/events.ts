import type { ConnectionView } from '../domain/connection';
import type { ClaudeConnectionStatus } from '../domain/claude';
import type { ComboView } from '../domain/combo';
import type { CooldownSnapshot } from '../domain/cooldown';
import type { SessionPinView } from '../domain/affinity';
import type { LeaseView } from '../domain/lease';
import type { LocalKeyView } from '../domain/local-key';
import type { Route } from '../domain/route';
import type { RequestLogEntry } from '../domain/request-log';
import type { ResilienceSettings } from '../domain/resilience-settings';
import type { Settings } from '../domain/settings';
import type { StorageStatus } from '../domain/storage-status';
import type { HeldRequestView } from '../domain/held';

/** What the core pushes to every UI; a snapshot method plus these events keeps a store current. */
export interface EventMap {
  'connections.changed': { connections: ConnectionView[] };
  /**
   * `lastUsedOnly`: nothing changed but a key's last-used time (written at most once a minute per
   * key), so the core keeps its verified-key cache, quota pools and catalog as they are.
   */
  'keys.changed': { keys: LocalKeyView[]; lastUsedOnly?: boolean };
  'combos.changed': { combos: ComboView[] };
  'routes.changed': { routes: Route[] };
  /**
   * Pins or leases changed by an action (a clear, a lease acquired or ended). Not sent for each pin a
   * request creates or extends: that would be an event per request; the dashboard re-reads instead.
   */
  'sessions.changed': { pins: SessionPinView[]; leases: LeaseView[] };
  'settings.changed': { settings: Settings };
  'activity.request': { entry: RequestLogEntry };
  'app.paused': { paused: boolean };
  'cooldowns.changed': { snapshot: CooldownSnapshot };
  'claude.changed': { status: ClaudeConnectionStatus[] };
  /** The resilience settings in force after a change, so every window and the tray see it. */
  'resilience.settingsChanged': { settings: ResilienceSettings };
  /** The data directory vanished while running: writes have stopped; the UI says so until a restart. */
  'storage.lost': { dataDir: string; message: string };
  /** Issue 21 §16: writes to the data directory began to fail, recovered, or the rows held for it changed. */
  'storage.changed': { storage: StorageStatus };
  /** Issue 24 §2: a request began or stopped waiting, or an operator acted on one: the whole list. */
  'held.changed': { held: HeldRequestView[] };
}

export type EventName = keyof EventMap;
export type CoreEvent = { [K in EventName]: { type: K; payload: EventMap[K] } }[EventName];
