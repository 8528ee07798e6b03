import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { fail, ok, type Result } from '../../src-shared/contract/errors';

/** A YAML mapping document (absent or empty: an empty one); anything else is refused with its path and line. */
function mappingDocument(path: string, text: string | null): Result<Document> {
  const doc = parseDocument(text ?? '');
  const [first] = doc.errors;
  if (first) {
    const line = first.linePos?.[0].line;
    return fail(
      'invalid_input',
      `${path} is not valid YAML${line ? ` (line ${line})` : ''}; fix or move it, then try again (nothing was changed)`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents))
    return fail(
      'invalid_input',
      `${path} is not a YAML mapping of settings; fix or move it, then try again (nothing was changed)`,
    );
  return ok(doc);
}

/** The text with each top-level key set, in place where it is, else appended; comments and other keys stay. */
export function setYamlKeys(
  path: string,
  text: string | null,
  entries: Readonly<Record<string, string>>,
): Result<string> {
  const doc = mappingDocument(path, text);
  if (!doc.ok) return doc;
  for (const [key, value] of Object.entries(entries)) doc.value.set(key, value);
  return ok(doc.value.toString());
}

/** A top-level string value (for status); a refusal when the file is not a YAML mapping. */
export function yamlString(path: string, text: string | null, key: string): Result<string | null> {
  if (text === null) return ok(null);
  const doc = mappingDocument(path, text);
  if (!doc.ok) return doc;
  const node = doc.value.get(key, true);
  return ok(isScalar(node) && typeof node.value === 'string' ? node.value : null);
}
