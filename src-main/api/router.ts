import { z } from 'zod';
import { fail, type Result } from '../../src-shared/contract/errors';
import {
  isMethodName,
  methods,
  type MethodName,
  type MethodOutput,
  type MethodParsedInput,
} from '../../src-shared/contract/methods';

/** One handler per contract method; expected refusals are returned, never thrown. */
export type Handlers = {
  [M in MethodName]: (input: MethodParsedInput<M>) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;
};

/** The single entry both doors (IPC and HTTP) call: validates, dispatches, never throws. */
export interface Router {
  call(method: string, input: unknown): Promise<Result<unknown>>;
}

/** Turns zod issues into `path: reason` lines a person can act on. */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(input)', message: issue.message }));
}

export function createRouter(handlers: Handlers, onBug: (method: string, error: unknown) => void = () => {}): Router {
  return {
    async call(method, input) {
      if (!isMethodName(method)) return fail('unknown_method', `Unknown method "${method}"`);
      const parsed = methods[method].input.safeParse(input ?? undefined);
      if (!parsed.success) {
        const issues = describeIssues(parsed.error);
        return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
      }
      try {
        const handler = handlers[method] as (value: unknown) => Result<unknown> | Promise<Result<unknown>>;
        return await handler(parsed.data);
      } catch (error) {
        // A throw here is a bug; the door still answers with data, and the message stays generic so nothing secret leaks.
        onBug(method, error);
        return fail('internal_error', `Internal error in ${method}`);
      }
    },
  };
}
