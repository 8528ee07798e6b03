/** One model id an upstream listed, with what its list said about it. */
export interface DiscoveredModel {
  id: string;
  /** Anthropic's `display_name`; null when the list has none (OpenAI lists). */
  displayName: string | null;
  /** Creation time in ms (Anthropic `created_at`, OpenAI `created` seconds); null when unknown. */
  createdAt: number | null;
}
