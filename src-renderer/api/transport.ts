import type { Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';
import type { MethodName } from '../../src-shared/contract/methods';

export type CoreEventListener = (event: CoreEvent) => void;

/** The untyped wire under the ApiClient: the preload bridge in Electron, HTTP in a browser, a fake in tests. */
export interface Transport {
  call(method: MethodName, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: CoreEventListener): () => void;
  /** Fires when the event stream resumes after a gap, so stores re-read what they may have missed. IPC never has gaps. */
  onReconnect?(listener: () => void): () => void;
}

/** Checks the outer shape of an answer from the wire before the UI trusts it as a Result. */
export function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  if (value.ok !== false || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}
