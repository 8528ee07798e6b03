/**
 * The contract every translator in this folder keeps. Translators are pure: JSON values in, JSON
 * values out, no I/O, no clock. The request path (`translate/wire-bridge.ts`) parses the client's
 * body once, calls a request translator, serialises once; for the answer it parses the upstream's
 * SSE into events and feeds a stream translator, or hands a whole JSON body to a response one.
 */

/** A JSON object as parsed from a body; translators narrow what they read. */
export type Json = Record<string, unknown>;

/** Why a request cannot be translated: answered 400 `invalid_request` naming the field (never dropped silently). */
export interface TranslateRefusal {
  /** Dotted path in the client's body, e.g. `messages[2].content[0].type` or `tools[0].type`. */
  field: string;
  message: string;
}

export type RequestTranslation =
  | {
      ok: true;
      body: Json;
      /** Things dropped that do not change the answer's meaning (e.g. `metadata.user_id`), for the log. */
      dropped: string[];
    }
  | { ok: false; refusal: TranslateRefusal };

/** Options a request translator is given. */
export interface RequestOptions {
  /** The model id to send upstream (the target's upstream model). */
  model: string;
  /** Whether the upstream has reasoning fields (`reasoning_content` on chat messages): thinking is carried, else dropped. */
  reasoning: boolean;
  /**
   * The client asked for a stream where its body cannot say so: a Gemini client calls
   * `:streamGenerateContent` (the URL says it). Other formats say `stream: true` in the body.
   */
  stream?: boolean;
}

export type RequestTranslator = (body: Json, options: RequestOptions) => RequestTranslation;

/** A whole (non-stream) 2xx answer in the upstream's format → the client's. */
export type ResponseTranslator = (body: Json, context: ResponseContext) => Json;

export interface ResponseContext {
  /** The model name the client asked for (answers name it, not the upstream's id). */
  clientModel: string;
  /** The client's original request body (a Responses answer echoes parts of it: instructions, tools). */
  request: Json;
  /** A stable id seed for ids the client format needs and the upstream did not give. */
  idSeed: string;
}

/** One server-sent event: `event:` name (null: none) and its `data` (JSON text, or `[DONE]`). */
export interface SseOut {
  event: string | null;
  data: string;
  /**
   * The same `data` in pieces, when it is built around long strings other events share
   * (`shared-json.ts`): written piece by piece, a long string is encoded without being copied.
   */
  pieces?: readonly string[];
  /**
   * Written as `data` alone, without SSE framing, in a piece of its own: Google ends a failing
   * Gemini stream with the bare error envelope, which is how Gemini CLI's SDK (1.x) sees an error.
   */
  raw?: true;
}

/**
 * A streaming answer in the upstream's format → the client's, event by event. `push` takes one
 * parsed upstream event and returns the client events it produces (often none, one or a few); an
 * upstream error event becomes the client format's error event. `end` is called once when the
 * upstream stream ended: after the upstream's terminal event it returns whatever closing events
 * were not produced yet; without one it returns nothing that looks terminal (the relay then ends
 * the client's stream with an "incomplete" error event, as for untranslated streams).
 */
export interface StreamTranslator {
  push(event: string | null, data: string): SseOut[];
  end(): SseOut[];
}

export type StreamTranslatorFactory = (context: ResponseContext) => StreamTranslator;

/** An upstream error body (JSON text, possibly not JSON) → the message the client's error envelope carries. */
export type ErrorMessageReader = (bodyText: string) => string | null;
