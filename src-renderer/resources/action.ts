import { useCallback, useRef, useState } from 'react';
import type { AppError, Result } from '../../src-shared/contract/errors';
import type { MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { CallArgs } from '../api/api-client';
import { INVALIDATES } from './invalidations';
import type { ResourceCache } from './resource-cache';
import { useResourceCache } from './resource-context';

/** A write through the contract; on success, re-reads what it changed (see INVALIDATES) before answering. */
export async function runAction<M extends MethodName>(
  cache: ResourceCache,
  method: M,
  ...args: CallArgs<M>
): Promise<Result<MethodOutput<M>>> {
  const result = await cache.api.call(method, ...args);
  if (result.ok) await cache.invalidate(INVALIDATES[method] ?? []);
  return result;
}

export interface Action<M extends MethodName> {
  run(...args: CallArgs<M>): Promise<Result<MethodOutput<M>>>;
  /** True from the call until the answer and the re-reads it caused are in. */
  pending: boolean;
  /** The last call's refusal, typed as the core sent it; null after a success. */
  error: AppError | null;
  clearError(): void;
}

/** One write a view can make, with its pending state and its refusal. */
export function useAction<M extends MethodName>(method: M): Action<M> {
  const cache = useResourceCache();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  // Two quick presses share one pending flag: it ends with the last answer, not the first.
  const running = useRef(0);
  const run = useCallback(
    async (...args: CallArgs<M>) => {
      running.current++;
      setPending(true);
      const result = await runAction(cache, method, ...args);
      running.current--;
      if (running.current === 0) setPending(false);
      setError(result.ok ? null : result.error);
      return result;
    },
    [cache, method],
  );
  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
