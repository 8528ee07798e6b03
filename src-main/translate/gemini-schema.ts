import type { Json } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';

/**
 * Gemini's `parameters` / `responseSchema` are an OpenAPI 3.0 subset (google.ai.Schema): UPPERCASE
 * `type`, `nullable`, `format: "enum"`, `propertyOrdering`, and int64 bounds (`minItems`,
 * `maxLength`…) as strings, since proto3 JSON writes int64 that way. Every other format takes JSON
 * Schema, so the schema is rewritten once: lower-case types, `nullable` as a `"null"` type, bounds as
 * numbers; `propertyOrdering` and the `enum` format have no JSON Schema meaning and go.
 * `parametersJsonSchema` / `responseJsonSchema` are JSON Schema already and are never rewritten.
 */
const INTEGER_BOUNDS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'];
const COPIED = ['description', 'title', 'pattern', 'minimum', 'maximum', 'default', 'format'];

const TYPES: Readonly<Record<string, string>> = {
  STRING: 'string',
  NUMBER: 'number',
  INTEGER: 'integer',
  BOOLEAN: 'boolean',
  ARRAY: 'array',
  OBJECT: 'object',
  NULL: 'null',
};

/** A JSON Schema for a Gemini OpenAPI-subset schema (a non-object becomes the empty schema). */
export function jsonSchemaFromGemini(value: unknown): Json {
  const schema = asObject(value);
  if (!schema) return {};
  const out: Json = {};
  const rawType = asString(schema.type);
  const type = rawType === null ? null : (TYPES[rawType.toUpperCase()] ?? null);
  if (type !== null) out.type = schema.nullable === true && type !== 'null' ? [type, 'null'] : type;
  for (const key of COPIED) {
    if (schema[key] === undefined) continue;
    // `format: "enum"` only says "this string has an enum", which `enum` already says.
    if (key === 'format' && schema.format === 'enum') continue;
    out[key] = schema[key];
  }
  if (schema.example !== undefined) out.examples = [schema.example];
  const values = asArray(schema.enum);
  if (values) out.enum = values;
  for (const key of INTEGER_BOUNDS) {
    const bound = asNumber(schema[key]) ?? asNumber(Number(asString(schema[key]) ?? Number.NaN));
    if (bound !== null) out[key] = bound;
  }
  const properties = asObject(schema.properties);
  if (properties) {
    const converted: Json = {};
    for (const name in properties) converted[name] = jsonSchemaFromGemini(properties[name]);
    out.properties = converted;
  }
  const required = asArray(schema.required);
  if (required) out.required = required;
  if (schema.items !== undefined) out.items = jsonSchemaFromGemini(schema.items);
  const anyOf = asArray(schema.anyOf);
  if (anyOf) out.anyOf = anyOf.map(jsonSchemaFromGemini);
  return out;
}

/** The JSON Schema of a function declaration: `parametersJsonSchema`, else `parameters` rewritten, else no parameters. */
export function declarationParameters(declaration: Json): Json {
  const direct = asObject(declaration.parametersJsonSchema);
  if (direct) return direct;
  if (declaration.parameters !== undefined && declaration.parameters !== null) {
    return jsonSchemaFromGemini(declaration.parameters);
  }
  return { type: 'object', properties: {} };
}
