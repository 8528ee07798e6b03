import type { EventName } from '../../src-shared/contract/events';

// A Record keyed by EventName fails to compile when the contract gains an event and this list does not.
const EVENTS: Record<EventName, true> = {
  'connections.changed': true,
  'keys.changed': true,
  'combos.changed': true,
  'routes.changed': true,
  'sessions.changed': true,
  'settings.changed': true,
  'activity.request': true,
  'held.changed': true,
  'app.paused': true,
  'cooldowns.changed': true,
  'claude.changed': true,
  'resilience.settingsChanged': true,
  'storage.lost': true,
  'storage.changed': true,
};

/** Every event type at runtime; EventSource needs one listener per named event. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
