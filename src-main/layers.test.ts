import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, isTestCode } from '../scripts/lint/layers-rule.js';

/*
 * Issue 22 step 1: src-main's folders form layers (src-main/layers.json, bottom up). eslint's
 * leeway/layers rule refuses an import that climbs; this test looks at the whole graph: no folder
 * cycle at all, every import going down, and every folder placed in the list.
 */
const root = path.resolve(import.meta.dirname, '..');
const { layers } = JSON.parse(readFileSync(path.join(root, 'src-main', 'layers.json'), 'utf8')) as {
  layers: string[];
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Folder → folder → the imports that make the edge, over production code only. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles('src-main')) {
    if (isTestCode(file)) continue;
    const from = folderOf(file);
    if (from === null) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (spec === undefined) continue;
      const to = folderOf(path.normalize(path.join(path.dirname(file), spec)));
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${file} → ${spec}`]);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])]);
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

describe('src-main layers (issue 22)', () => {
  const graph = folderGraph();

  it('issue 22: no folder of src-main is in an import cycle with another', () => {
    const found = cycles(graph).map((component) => ({
      folders: component,
      edges: component.flatMap((a) =>
        [...(graph.get(a) ?? [])].filter(([b]) => component.includes(b)).flatMap(([, list]) => list.slice(0, 2)),
      ),
    }));
    expect(found).toEqual([]);
  });

  it('issue 22: every import between folders goes down src-main/layers.json (none climbs back up)', () => {
    const climbs: string[] = [];
    for (const [from, edges] of graph) {
      for (const [to, list] of edges) {
        if (layers.indexOf(to) > layers.indexOf(from)) climbs.push(...list.map((l) => `${from} → ${to}: ${l}`));
      }
    }
    expect(climbs).toEqual([]);
  });

  it('issue 22: every folder of src-main has its place in the list, and the list names no folder that is gone', () => {
    const folders = readdirSync(path.join(root, 'src-main'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => entry.name);
    const withCode = folders.filter((folder) => sourceFiles(path.join('src-main', folder)).some((f) => !isTestCode(f)));
    expect(withCode.filter((folder) => !layers.includes(folder))).toEqual([]);
    expect(layers.filter((layer) => layer !== '(entries)' && !withCode.includes(layer))).toEqual([]);
  });

  it('issue 22: the graph is read (the request path reaches the kernel through several folders)', () => {
    expect([...(graph.get('proxy')?.keys() ?? [])]).toEqual(expect.arrayContaining(['kernel', 'routing', 'translate']));
  });

  it('issue 22: the cycle check finds a cycle when there is one', () => {
    const made = new Map([
      ['a', new Map([['b', ['a.ts → ../b/x']]])],
      ['b', new Map([['a', ['b.ts → ../a/y']]])],
    ]);
    expect(cycles(made)).toEqual([['a', 'b']]);
  });
});
