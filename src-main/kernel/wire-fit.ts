import { servesResponsesNatively, type WireFormat } from '../../src-shared/domain/connection';
import type { RuntimeConnection } from './catalog';

/** How a connection can serve a client's wire format: as is, through `translate/`, or not at all. */
export type WireFit = 'native' | 'translated' | null;

/**
 * Same-format traffic is native (bytes untouched); another format is translated unless the
 * connection turned translation off (issue 12 §4). The Responses API is native only where the
 * upstream serves it (OpenAI's own API, or a connection marked so).
 */
export function wireFit(connection: RuntimeConnection, wire: WireFormat): WireFit {
  const format = connection.adapter.format;
  const native =
    wire === 'responses'
      ? format === 'openai' && servesResponsesNatively(connection.view.kind, connection.view.responsesApi)
      : format === wire;
  if (native) return 'native';
  return connection.view.acceptTranslated === false ? null : 'translated';
}
