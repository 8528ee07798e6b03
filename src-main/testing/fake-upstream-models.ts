/** The model catalogue each fake serves on `GET /v1/models`, in the provider's list shape. */
import type { PlanContext } from './fake-upstream-errors';

/** Current public model ids, so clients that validate names see familiar ones. */
export const DEFAULT_MODELS = {
  anthropic: ['claude-sonnet-4-6', 'claude-opus-4-7', 'claude-haiku-4-5-20251001'],
  openai: ['gpt-4o', 'gpt-4o-mini'],
} as const;

export function modelList(ctx: PlanContext): object {
  if (ctx.format === 'openai') {
    return {
      object: 'list',
      data: ctx.models.map((id) => ({
        id,
        object: 'model',
        created: 1715367049,
        owned_by: 'system',
      })),
    };
  }
  const data = ctx.models.map((id) => ({
    type: 'model',
    id,
    display_name: displayName(id),
    created_at: '2025-09-29T00:00:00Z',
  }));
  return {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}

/** `claude-haiku-4-5-20251001` → `Claude Haiku 4.5`, like Anthropic's display names. */
function displayName(id: string): string {
  const parts = id.replace(/-\d{8}$/, '').split('-');
  const words = parts.filter((p) => !/^\d+$/.test(p)).map((p) => p.charAt(0).toUpperCase() + p.slice(1));
  const version = parts.filter((p) => /^\d+$/.test(p)).join('.');
  return [...words, version].filter(Boolean).join(' ');
}
