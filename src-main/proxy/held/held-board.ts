import type { HeldAction, HeldRequestView, HeldWait } from '../../../src-shared/domain/held';

/** What a stage knows about the request it is about to hold. */
export interface HoldInput {
  keyName: string | null;
  model: string;
  session: string | null;
  stream: boolean;
  waitsFor: HeldWait;
  what: string;
  until: number | null;
  actions: readonly HeldAction[];
}

/**
 * One wait on the board. `wake` is called with the operator's action; the waiting stage reads it as
 * `action` after its wait ends. `end` takes it off the board (always, in a finally).
 */
export interface Hold {
  readonly id: string;
  /** The operator's action, once one was taken; null while the wait runs its course. */
  readonly action: HeldAction | null;
  /** Resolves when the operator acts: the stage races its own wait against it. */
  readonly acted: Promise<HeldAction>;
  end(): void;
}

/** Why an action was refused, as data (the handler turns it into the contract's error). */
export type ActRefusal = 'not_found' | 'not_offered';

/**
 * Requests waiting right now (issue 24 §2): cooldown holds, queue waits, the Claude lane. Memory
 * only: a hold lives as long as its request. `onChange` tells the UIs (one event per enter, end
 * or action: holds are rare, seconds long).
 */
export interface HeldBoard {
  enter(input: HoldInput, now: number): Hold;
  list(): HeldRequestView[];
  act(id: string, action: HeldAction): ActRefusal | null;
  readonly size: number;
}

interface Entry {
  view: HeldRequestView;
  action: HeldAction | null;
  resolve(action: HeldAction): void;
}

export function createHeldBoard(onChange: (held: HeldRequestView[]) => void = () => {}): HeldBoard {
  const entries = new Map<string, Entry>();
  let next = 1;
  const list = (): HeldRequestView[] => [...entries.values()].map((e) => e.view);
  const changed = () => onChange(list());
  return {
    enter(input, now) {
      const id = `h${next++}`;
      let resolve: (action: HeldAction) => void = () => {};
      const acted = new Promise<HeldAction>((r) => (resolve = r));
      const entry: Entry = { view: { id, since: now, ...input, actions: [...input.actions] }, action: null, resolve };
      entries.set(id, entry);
      changed();
      return {
        id,
        acted,
        get action() {
          return entry.action;
        },
        end() {
          if (entries.delete(id)) changed();
        },
      };
    },
    list,
    act(id, action) {
      const entry = entries.get(id);
      if (!entry || entry.action !== null) return 'not_found';
      if (!entry.view.actions.includes(action)) return 'not_offered';
      entry.action = action;
      entries.delete(id);
      entry.resolve(action);
      changed();
      return null;
    },
    get size() {
      return entries.size;
    },
  };
}
