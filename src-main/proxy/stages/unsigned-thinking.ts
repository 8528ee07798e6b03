import { asArray, asObject, parseObject } from '../../translate/json-narrow';

const EMPTY_SIGNATURES = [Buffer.from('"signature":""'), Buffer.from('"signature": ""')];

/** The byte search for small bodies; a large body's scan finds the same (replace-model.ts). */
export function hasEmptySignature(body: Buffer): boolean {
  for (const mark of EMPTY_SIGNATURES) if (body.indexOf(mark) !== -1) return true;
  return false;
}

/**
 * Thinking blocks an answer translated from an OpenAI-format upstream carried (`signature: ""`)
 * come back in the client's history. Anthropic refuses unsigned thinking, so when such a turn
 * fails over (or returns) to a real Anthropic connection those blocks are removed: they were
 * never Anthropic's, and the reasoning they hold was only shown, not relied on. Anthropic's own
 * thinking always has a signature, so ordinary bodies are not touched (one byte search), and
 * their bytes stay exact. Null: nothing to remove.
 */
export function withoutUnsignedThinking(body: Buffer): Buffer | null {
  if (!hasEmptySignature(body)) return null;
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
