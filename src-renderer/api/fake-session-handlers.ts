import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';
import type { MethodOutput, MethodParsedInput } from '../../src-shared/contract/methods';
import { routeListProblems } from '../../src-shared/domain/route-targets';
import type { FakeState } from './fake-handlers';

type Handler<
  M extends 'routes.list' | 'routes.replace' | 'sessions.list' | 'sessions.clear' | 'leases.list' | 'leases.clear',
> = (input: MethodParsedInput<M>) => Result<MethodOutput<M>>;

/** Routes, pins and leases over the fake's memory, refusing what the real core refuses. */
export function createFakeSessionHandlers(state: FakeState, emit: (event: CoreEvent) => void) {
  const sessionsChanged = (): void =>
    emit({ type: 'sessions.changed', payload: { pins: state.pins, leases: state.leases } });
  const known = () => ({
    combos: new Set(state.combos.map((c) => c.name)),
    connections: new Set(state.connections.map((c) => c.name)),
    models: new Set(state.connections.flatMap((c) => [...c.models, ...Object.keys(c.modelAliases)])),
  });
  const routesList: Handler<'routes.list'> = () => ok(state.routes);
  const routesReplace: Handler<'routes.replace'> = ({ routes }) => {
    const issues = routeListProblems(routes, known()).map((p) => ({
      path: `routes.${p.index}.${p.field}`,
      message: p.message,
    }));
    if (issues.length > 0)
      return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
    state.routes = routes;
    emit({ type: 'routes.changed', payload: { routes } });
    return ok(routes);
  };
  const sessionsList: Handler<'sessions.list'> = () => ok(state.pins);
  const sessionsClear: Handler<'sessions.clear'> = (input) => {
    const before = state.pins.length;
    state.pins = state.pins.filter((p) => {
      if (input.target === 'all') return false;
      if (input.target === 'connection') return p.connection !== input.connection;
      return !(p.keyName === input.keyName && p.session === input.session && p.target === input.scope);
    });
    sessionsChanged();
    return ok({ cleared: before - state.pins.length });
  };
  const leasesList: Handler<'leases.list'> = () => ok(state.leases);
  const leasesClear: Handler<'leases.clear'> = (input) => {
    const before = state.leases.length;
    state.leases = state.leases.filter((l) => input.target === 'connection' && l.connection !== input.connection);
    sessionsChanged();
    return ok({ cleared: before - state.leases.length });
  };
  return {
    'routes.list': routesList,
    'routes.replace': routesReplace,
    'sessions.list': sessionsList,
    'sessions.clear': sessionsClear,
    'leases.list': leasesList,
    'leases.clear': leasesClear,
  };
}
