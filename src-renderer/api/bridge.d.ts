import type { Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';

/** What the Electron preload exposes as `window.leeway`: exactly the two doors of the contract. */
export interface LeewayBridge {
  call(method: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
}

declare global {
  interface Window {
    /** Present only inside the Electron window; a browser tab talks HTTP instead. */
    leeway?: LeewayBridge;
  }
}
