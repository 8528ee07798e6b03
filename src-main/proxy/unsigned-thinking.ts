import { asArray, asObject, parseObject } from '../translate/json-narrow';

const EMPTY_SIGNATURES = [Buffer.from('"signature":""'), Buffer.from('"signature": ""')];

/**
 * Thinking blocks an answer translated from an OpenAI-format upstream carried (`signature: ""`)
 * come back in the client's history. Anthropic refuses unsigned thinking, so when such a turn
 * fails over (or returns) to a real Anthropic connection those blocks are removed: they were
 * never Anthropic's, and the reasoning they hold was only shown, not relied on. Anthropic's own
 * thinking always has a signature, so ordinary bodies are not touched (one byte search), and
 * their bytes stay exact. Null: nothing to remove.
 */
export function withoutUnsignedThinking(body: Buffer): Buffer | null {
  if (!EMPTY_SIGNATURES.some((mark) => body.indexOf(mark) !== -1)) return null;
  const parsed = parseObject(body.toString('utf8'));
  const messages = parsed ? asArray(parsed.messages) : null;
  if (!parsed || !messages) return null;
  let removed = false;
  const cleaned = messages.map((raw) => {
    const message = asObject(raw);
    const content = message ? asArray(message.content) : null;
    if (!message || !content) return raw;
    const kept = content.filter((block) => {
      const b = asObject(block);
      const unsigned = b?.type === 'thinking' && (b.signature === '' || b.signature === undefined);
      if (unsigned) removed = true;
      return !unsigned;
    });
    return kept.length === content.length ? raw : { ...message, content: kept };
  });
  return removed ? Buffer.from(JSON.stringify({ ...parsed, messages: cleaned }), 'utf8') : null;
}
