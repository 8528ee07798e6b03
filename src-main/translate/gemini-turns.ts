import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { pick } from './gemini-fields';
import { geminiCallId, SKIP_SIGNATURE } from './gemini-ids';
import { done, refuse, type Step } from './refusal';
import { resultOf } from './gemini-result';
import { readMedia, type Media } from './gemini-media';

/**
 * A Gemini `contents` array read once into turns both Chat and Anthropic requests are built from.
 * Calls get an id (their own, else one from their position); each functionResponse is paired with
 * the call it answers: by id when it names one that is waiting, else the first waiting call of the
 * same name (Gemini pairs by name and order). A response that answers no call is refused: neither
 * Chat nor Anthropic accepts a tool result without its call.
 */
export type TurnItem =
  | { kind: 'text'; text: string }
  | { kind: 'media'; media: Media }
  | { kind: 'thought'; text: string; signature: string | null }
  | { kind: 'call'; id: string; name: string; args: Json; signature: string | null }
  | { kind: 'result'; id: string; name: string; output: string; isError: boolean; media: Media[] };

export interface Turn {
  role: 'user' | 'model';
  items: TurnItem[];
}

/** Parts that run on Google's side: no other upstream can execute or replay them. */
const GOOGLE_SIDE = ['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'];
const IGNORED = ['partMetadata', 'mediaResolution', 'videoMetadata'];

interface Pending {
  id: string;
  given: string | null;
  name: string;
}

export function readTurns(contents: unknown, dropped: Set<string>): Step<Turn[]> {
  const list = asArray(contents);
  if (!list) return refuse('contents', 'contents must be an array');
  const turns: Turn[] = [];
  const pending: Pending[] = [];
  for (let i = 0; i < list.length; i++) {
    const field = `contents[${i}]`;
    const content = asObject(list[i]);
    if (!content) return refuse(field, 'a content must be an object');
    const rawRole = content.role ?? 'user';
    // `function` is the role older SDKs gave function responses.
    const role = rawRole === 'model' ? 'model' : rawRole === 'user' || rawRole === 'function' ? 'user' : null;
    if (role === null) return refuse(`${field}.role`, `role "${String(rawRole)}" is not user or model`);
    const parts = asArray(content.parts);
    if (!parts) return refuse(`${field}.parts`, 'parts must be an array');
    const items: TurnItem[] = [];
    for (let j = 0; j < parts.length; j++) {
      const item = readPart(parts[j], `${field}.parts[${j}]`, { role, content: i, part: j, pending, dropped });
      if (!item.ok) return item;
      if (item.value) items.push(item.value);
    }
    turns.push({ role, items });
  }
  return done(turns);
}

interface PartContext {
  role: 'user' | 'model';
  content: number;
  part: number;
  pending: Pending[];
  dropped: Set<string>;
}

function readPart(value: unknown, field: string, at: PartContext): Step<TurnItem | null> {
  const part = asObject(value);
  if (!part) return refuse(field, 'a part must be an object');
  for (const key of IGNORED) if (pick(part, key) !== undefined) at.dropped.add(`parts[].${key}`);
  const signature = asString(pick(part, 'thoughtSignature'));
  const text = asString(part.text);
  if (text !== null) {
    if (part.thought === true) return done({ kind: 'thought', text, signature });
    noteSignature(signature, at.dropped);
    return done({ kind: 'text', text });
  }
  const call = asObject(pick(part, 'functionCall'));
  if (call) return readCall(call, field, signature, at);
  const response = asObject(pick(part, 'functionResponse'));
  if (response) return readResponse(response, field, at);
  const media = readMedia(part, field);
  if (media) {
    noteSignature(signature, at.dropped);
    return media.ok ? done({ kind: 'media', media: media.value }) : media;
  }
  for (const key of GOOGLE_SIDE) {
    if (pick(part, key) !== undefined) return refuse(`${field}.${key}`, `${key} parts run on Google's side only`);
  }
  // A part holding only a signature (Gemini streams end a text with one) carries nothing else.
  if (signature !== null) return done(null);
  const known = Object.keys(part).filter((key) => !IGNORED.includes(key));
  if (known.length === 0) return done(null);
  return refuse(`${field}.${known[0] ?? ''}`, `part "${known[0] ?? ''}" cannot be translated`);
}

function noteSignature(signature: string | null, dropped: Set<string>): void {
  if (signature !== null && signature !== SKIP_SIGNATURE) dropped.add('thoughtSignature');
}

function readCall(call: Json, field: string, signature: string | null, at: PartContext): Step<TurnItem> {
  if (at.role !== 'model') return refuse(`${field}.functionCall`, 'a functionCall belongs in a model turn');
  const name = asString(call.name);
  if (!name) return refuse(`${field}.functionCall.name`, 'a functionCall needs a name');
  const given = asString(call.id) || null;
  const id = given ?? geminiCallId(at.content, at.part);
  at.pending.push({ id, given, name });
  return done({ kind: 'call', id, name, args: asObject(call.args) ?? {}, signature });
}

function readResponse(response: Json, field: string, at: PartContext): Step<TurnItem> {
  if (at.role !== 'user') return refuse(`${field}.functionResponse`, 'a functionResponse belongs in a user turn');
  const name = asString(response.name);
  if (!name) return refuse(`${field}.functionResponse.name`, 'a functionResponse needs a name');
  const given = asString(response.id);
  let index = given ? at.pending.findIndex((call) => call.given === given) : -1;
  if (index < 0) index = at.pending.findIndex((call) => call.name === name);
  const call = at.pending[index];
  if (!call) {
    return refuse(`${field}.functionResponse`, `no functionCall "${name}" before it is waiting for this response`);
  }
  at.pending.splice(index, 1);
  const result = resultOf(response, `${field}.functionResponse`);
  if (!result.ok) return result;
  return done({ kind: 'result', id: call.id, name, ...result.value });
}
