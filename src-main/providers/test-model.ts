import { priceOf } from '../quota/engine/price-table';
import type { RuntimeConnection } from '../kernel/catalog';

/** Ids a models list holds that no chat request can use: a request naming one fails for that reason alone. */
const NOT_A_CHAT_MODEL = /embed|tts|whisper|dall-e|image|audio|moderation|realtime|transcribe|search|rerank/i;

const listPrice = (model: string): number | null => {
  const price = priceOf(model);
  return price === null ? null : price.input + price.output;
};

/** The cheapest of `models` by list price; ids without a price come after every priced one, in order. */
function cheapest(models: readonly string[]): string | null {
  let best: string | null = null;
  let bestPrice = Number.POSITIVE_INFINITY;
  for (const model of models) {
    const price = listPrice(model);
    if (price !== null && price < bestPrice) {
      best = model;
      bestPrice = price;
    }
  }
  return best ?? models[0] ?? null;
}

/**
 * The model "Test" sends its one-token request to (issue 21 §17): the cheapest the connection names
 * (price table; unpriced ids after priced ones), else, for a connection that serves any model, the
 * cheapest chat model its upstream just listed. Null when there is none to try.
 */
export function pickTestModel(connection: RuntimeConnection, listed: readonly string[]): string | null {
  if (connection.view.models.length > 0) return cheapest(connection.view.models);
  return cheapest(listed.filter((id) => !NOT_A_CHAT_MODEL.test(id)));
}
