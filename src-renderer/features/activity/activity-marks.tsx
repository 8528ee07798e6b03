import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { servedViaTag } from '../claude/claude-format';
import { formatTranslated } from './format-activity';

const PIN_TITLE = {
  kept: 'The session pin chose this connection',
  moved: 'The pinned connection could not serve; the session moved here',
  new: 'The session’s first request here: it is pinned to this connection now',
} as const;

const PIN_LABEL = { kept: 'pinned', moved: 'pin moved', new: 'pin new' } as const;

/** The tags beside the connection: what the session pin did, a provider hook's lane, a translation. */
export function ConnectionMarks({ entry: e }: { entry: RequestLogEntry }) {
  const via = servedViaTag(e.servedVia);
  const translated = formatTranslated(e);
  return (
    <>
      {e.sessionPin && (
        <span className="tag" title={PIN_TITLE[e.sessionPin]}>
          {PIN_LABEL[e.sessionPin]}
        </span>
      )}
      {via && (
        <span className="tag" title={via.title}>
          {via.label}
        </span>
      )}
      {translated && (
        <span className="tag" title={`Translated ${translated} (client format → connection format)`}>
          translated
        </span>
      )}
    </>
  );
}
