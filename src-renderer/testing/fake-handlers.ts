import type { Result } from '../../src-shared/contract/errors';
import type { MethodName, MethodOutput, MethodParsedInput } from '../../src-shared/contract/methods';

/** The fake core: one entry per contract method, each a canned answer or a tiny state change. */
export type FakeHandlers = { [M in MethodName]: (input: MethodParsedInput<M>) => Result<MethodOutput<M>> };
