import type { Result } from '../../src-shared/contract/errors';
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/methods';

/** The one thing the shell asks of the core: the contract's router (validates, never throws). */
export interface ContractRouter {
  call(method: string, input: unknown): Promise<Result<unknown>>;
}

/**
 * A typed contract call for the shell's own use (tray, notifications): the router validates the
 * input and answers a Result, so the cast only restores the type the contract already promises.
 */
export function callContract<M extends MethodName>(
  router: ContractRouter,
  method: M,
  input: MethodInput<M>,
): Promise<Result<MethodOutput<M>>> {
  return router.call(method, input) as Promise<Result<MethodOutput<M>>>;
}
