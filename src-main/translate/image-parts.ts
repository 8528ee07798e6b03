import type { Json } from './translate-types';
import { asObject, asString } from './json-narrow';
import { done, refuse, type Step } from './refusal';

/**
 * Images both ways. Anthropic: `{type:"image", source:{type:"base64", media_type, data}}` or
 * `source:{type:"url", url}`; Chat: `{type:"image_url", image_url:{url}}` with a `data:` URL for
 * inline bytes. Only the URL's short header is scanned; the base64 payload is sliced, not copied.
 */
export function chatImagePartFromAnthropic(block: Json, field: string): Step<Json> {
  const source = asObject(block.source);
  if (!source) return refuse(`${field}.source`, 'an image block needs a source');
  if (source.type === 'base64') {
    const mediaType = asString(source.media_type);
    const data = asString(source.data);
    if (!mediaType || data === null) return refuse(`${field}.source`, 'a base64 image needs media_type and data');
    return done({ type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` } });
  }
  if (source.type === 'url') {
    const url = asString(source.url);
    if (!url) return refuse(`${field}.source.url`, 'a url image needs a url');
    return done({ type: 'image_url', image_url: { url } });
  }
  return refuse(`${field}.source.type`, `image source "${String(source.type)}" has no Chat Completions equivalent`);
}

const BASE64_MARK = ';base64';

export function anthropicImageFromChat(part: Json, field: string, dropped: Set<string>): Step<Json> {
  const image = asObject(part.image_url);
  const url = asString(image?.url) ?? asString(part.image_url);
  if (!url) return refuse(`${field}.image_url.url`, 'an image_url part needs a url');
  if (image && image.detail !== undefined) dropped.add('image_url.detail');
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const header = comma > 0 ? url.slice(5, comma) : '';
    if (!header.endsWith(BASE64_MARK)) {
      return refuse(`${field}.image_url.url`, 'only base64 data: URLs can be sent to an Anthropic connection');
    }
    const mediaType = header.slice(0, -BASE64_MARK.length);
    return done({ type: 'image', source: { type: 'base64', media_type: mediaType, data: url.slice(comma + 1) } });
  }
  if (url.startsWith('https://') || url.startsWith('http://')) {
    return done({ type: 'image', source: { type: 'url', url } });
  }
  return refuse(`${field}.image_url.url`, 'an image URL must be http(s) or a base64 data: URL');
}
