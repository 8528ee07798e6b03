/** Copies `base` and overlays every defined field of each layer in order; `undefined` never erases. */
export function overlayDefined<T extends object>(base: T, ...layers: Array<Partial<T> | undefined>): T {
  const result = { ...base };
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const key of Object.keys(layer) as Array<keyof T>) {
      const value = layer[key];
      if (value !== undefined) result[key] = value as T[keyof T];
    }
  }
  return result;
}
