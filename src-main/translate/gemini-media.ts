import type { Json } from './translate-types';
import { asString, asObject } from './json-narrow';
import { pick } from './gemini-fields';
import { done, refuse, type Step } from './refusal';

/** Bytes or a URL in a Gemini part: `inlineData` (base64) or `fileData` (only http(s) URLs leave Google). */
export interface Media {
  mimeType: string;
  /** Base64 bytes (`inlineData`), or null for a URL. */
  data: string | null;
  url: string | null;
  /** Where it stands in the client's body, for a refusal that names it. */
  field: string;
}

/** `inlineData` (base64 bytes) or `fileData` with an http(s) URL; null when the part has neither. */
export function readMedia(part: Json, field: string): Step<Media> | null {
  const inline = asObject(pick(part, 'inlineData'));
  if (inline) {
    const mimeType = asString(pick(inline, 'mimeType'));
    const data = asString(inline.data);
    if (!mimeType || data === null) return refuse(`${field}.inlineData`, 'inlineData needs mimeType and data');
    return done({ mimeType, data, url: null, field: `${field}.inlineData` });
  }
  const file = asObject(pick(part, 'fileData'));
  if (!file) return null;
  const url = asString(pick(file, 'fileUri')) ?? '';
  const mimeType = asString(pick(file, 'mimeType')) ?? '';
  if (!/^https?:\/\//.test(url)) {
    return refuse(
      `${field}.fileData.fileUri`,
      'files of the Gemini Files API or Cloud Storage are readable by Google only',
    );
  }
  return done({ mimeType, data: null, url, field: `${field}.fileData` });
}
