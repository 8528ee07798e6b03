import type { AppError } from '../../src-shared/contract/errors';

/** Where a snapshot stands; views show a spinner, the data, or the error with what to do. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Fields every store shares, so one component can render the loading and error states. */
export interface Loadable {
  status: LoadStatus;
  error: AppError | null;
}
