import { z } from 'zod';
import { fail, type AppError, type Result } from '../../src-shared/contract/errors';
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

/**
 * `onThrow` hears every throw; it may name the refusal the caller gets instead of the generic
 * internal error (the core turns a disk that refused a write into `storage_unavailable`).
 */
export function createRouter(
  handlers: Handlers,
  onThrow: (method: string, error: unknown) => AppError | void = () => {},
): Router {
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
        // Otherwise a throw is a bug; the door still answers with data, and the message stays generic so nothing secret leaks.
        const typed = onThrow(method, error);
        return typed ? { ok: false, error: typed } : fail('internal_error', `Internal error in ${method}`);
      }
    },
  };
}
