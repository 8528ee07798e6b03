import { z } from 'zod';

/** One Gemini models page as discovery reads it (the same shape as ModelPage, kept free of its module). */
export interface GeminiModelPage {
  models: { id: string; displayName: string | null; createdAt: number | null }[];
  nextAfter: string | null;
}

const MAX_ID_LENGTH = 256;

const itemSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH + 'models/'.length),
  displayName: z.string().optional().catch(undefined),
  supportedGenerationMethods: z.array(z.string()).optional().catch(undefined),
});
const pageSchema = z.object({
  models: z.array(z.unknown()),
  nextPageToken: z.string().optional().catch(undefined),
});

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Issue 23 §1: Google's `GET /v1beta/models` page, `{models:[{name:"models/gemini-2.5-pro",
 * displayName, supportedGenerationMethods}], nextPageToken}`. Only models that generate content are
 * kept (embedding models are listed too); the id is the name without `models/`.
 */
export function parseGeminiModelPage(json: unknown): GeminiModelPage | null {
  const page = pageSchema.safeParse(json);
  if (!page.success) return null;
  const models: GeminiModelPage['models'] = [];
  for (const raw of page.data.models) {
    const item = itemSchema.safeParse(raw);
    if (!item.success) continue;
    const methods = item.data.supportedGenerationMethods;
    if (methods !== undefined && !methods.includes('generateContent')) continue;
    const id = item.data.name.replace(/^models\//, '').trim();
    if (id === '' || hasControlCharacter(id)) continue;
    models.push({ id, displayName: item.data.displayName?.slice(0, MAX_ID_LENGTH) ?? null, createdAt: null });
  }
  const token = page.data.nextPageToken;
  return { models, nextAfter: token !== undefined && token !== '' ? token : null };
}
