// eslint rule `leeway/layers`: a src-main folder imports only the folders below it in
// src-main/layers.json. The list is the architecture's one statement of the order; the rule and
// src-main/layers.test.ts (which also refuses any folder cycle) read the same file.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const { layers } = JSON.parse(readFileSync(path.join(root, 'src-main', 'layers.json'), 'utf8'));

/** The src-main folder a path belongs to: its first segment, or `(entries)` for a file at the top. */
export function folderOf(relative) {
  const parts = relative.split(path.sep);
  if (parts[0] !== 'src-main') return null;
  return parts.length > 2 ? parts[1] : '(entries)';
}

/** Test code may reach anything: tests, test kits (`*.testkit.ts`) and `src-main/testing/`. */
export function isTestCode(relative) {
  return /\.test\.tsx?$/.test(relative) || /\.testkit\.tsx?$/.test(relative) || folderOf(relative) === 'testing';
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'src-main folders import only the folders below them (src-main/layers.json)' },
    schema: [],
  },
  create(context) {
    const file = path.relative(root, context.filename);
    const from = folderOf(file);
    if (from === null || isTestCode(file)) return {};
    const rank = layers.indexOf(from);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = folderOf(path.relative(root, path.resolve(path.dirname(context.filename), source)));
      if (to === null || to === from) return;
      if (to === 'testing') {
        context.report({ node, message: `${from}/ must not import testing/ (move the kit to a *.testkit.ts file).` });
        return;
      }
      const target = layers.indexOf(to);
      if (rank === -1 || target === -1) {
        context.report({ node, message: `Place ${rank === -1 ? from : to}/ in src-main/layers.json.` });
      } else if (target > rank) {
        context.report({
          node,
          message: `${from}/ may not import ${to}/: it sits above it in src-main/layers.json. Invert the dependency (a port in ${from}/, implemented above).`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : null),
    };
  },
};
