import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type { CoreEvent } from '../../../src-shared/contract/events';
import { methods, type MethodName } from '../../../src-shared/contract/methods';
import type { FakeApi } from '../../api/fake-api';
import type { FakeHandlers, FakeState } from '../../api/fake-handlers';
import type { Transport } from '../../api/transport';

type RenameMethod = 'connections.rename' | 'keys.rename' | 'combos.rename' | 'cooldowns.probe';
export type FakeRenameHandlers = Pick<FakeHandlers, RenameMethod>;

const RENAME_METHODS: readonly RenameMethod[] = [
  'connections.rename',
  'keys.rename',
  'combos.rename',
  'cooldowns.probe',
];
const isRenameMethod = (m: MethodName): m is RenameMethod => (RENAME_METHODS as readonly string[]).includes(m);

const taken = (what: string) =>
  fail('conflict', `"${what}" is already taken`, {
    details: { issues: [{ path: 'to', message: 'is already taken' }] },
  });

/** Issue 13 §8 over the fake core's memory: renames in place (references follow) and "Probe now". */
export function createFakeRenameHandlers(state: FakeState, emit: (event: CoreEvent) => void): FakeRenameHandlers {
  return {
    'connections.rename': ({ from, to }) => {
      const found = state.connections.find((c) => c.name === from);
      if (!found) return fail('not_found', `No connection named "${from}"`);
      if (from !== to && (state.connections.some((c) => c.name === to) || state.combos.some((c) => c.name === to)))
        return taken(to);
      const renamed = { ...found, name: to };
      state.connections = state.connections.map((c) => (c.id === found.id ? renamed : c));
      state.combos = state.combos.map((combo) => ({
        ...combo,
        targets: combo.targets.map((t) => (t.connection === from ? { ...t, connection: to } : t)),
      }));
      state.keys = state.keys.map((k) => ({
        ...k,
        allowedConnections: k.allowedConnections.map((n) => (n === from ? to : n)),
      }));
      emit({ type: 'connections.changed', payload: { connections: state.connections } });
      emit({ type: 'combos.changed', payload: { combos: state.combos } });
      emit({ type: 'keys.changed', payload: { keys: state.keys } });
      return ok(renamed);
    },
    'keys.rename': ({ id, name }) => {
      const found = state.keys.find((k) => k.id === id);
      if (!found) return fail('not_found', `No key with id "${id}"`);
      if (state.keys.some((k) => k.name === name && k.id !== id))
        return fail('conflict', `a local key named "${name}" already exists`, {
          details: { issues: [{ path: 'name', message: 'is already taken' }] },
        });
      const renamed = { ...found, name };
      state.keys = state.keys.map((k) => (k.id === id ? renamed : k));
      emit({ type: 'keys.changed', payload: { keys: state.keys } });
      return ok(renamed);
    },
    'combos.rename': ({ from, to }) => {
      const found = state.combos.find((c) => c.name === from);
      if (!found) return fail('not_found', `No combo named "${from}"`);
      if (from !== to && (state.combos.some((c) => c.name === to) || state.connections.some((c) => c.name === to)))
        return taken(to);
      const renamed = { ...found, name: to };
      state.combos = state.combos.map((c) => (c.id === found.id ? renamed : c));
      emit({ type: 'combos.changed', payload: { combos: state.combos } });
      return ok(renamed);
    },
    'cooldowns.probe': (target) => {
      const name = target.target === 'connection' ? target.connection : null;
      return ok({ connection: name, ok: true, lifted: true, message: `${name ?? 'it'} answered; lifted` });
    },
  };
}

/**
 * For component tests: a transport wrapper that answers the methods above from the fake core of
 * `holder` (set once renderWithFake has returned), validating input like the fake does.
 */
export function withFakeRenames(holder: { fake?: FakeApi }): (inner: Transport) => Transport {
  return (inner) => ({
    ...inner,
    call(method, input) {
      const fake = holder.fake;
      if (!fake || !isRenameMethod(method)) return inner.call(method, input);
      const parsed = methods[method].input.safeParse(input);
      if (!parsed.success) return Promise.resolve(fail('invalid_input', parsed.error.message));
      const handler = createFakeRenameHandlers(fake.state, fake.emit)[method] as (value: unknown) => Result<unknown>;
      return Promise.resolve(handler(parsed.data));
    },
  });
}
