import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** The parts of V8's `.heapsnapshot` format this reads (nodes and edges are flat arrays). */
const snapshotSchema = z.object({
  snapshot: z.object({
    meta: z.object({
      node_fields: z.array(z.string()),
      node_types: z.array(z.unknown()),
      edge_fields: z.array(z.string()),
      edge_types: z.array(z.unknown()),
    }),
  }),
  nodes: z.array(z.number()),
  edges: z.array(z.number()),
  strings: z.array(z.string()),
});

export interface HeapGroup {
  group: string;
  count: number;
  'self MB': number;
  'retained MB': number;
}

export interface HeapSummary {
  totalMb: number;
  /** By constructor (objects) or kind (strings, arrays, code…), largest retained first. */
  groups: HeapGroup[];
  /** The single objects that keep the most memory alive. */
  largest: Array<{ object: string; 'retained MB': number }>;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Reads a heap snapshot and computes each object's retained size (the memory freed if it went):
 * the dominator tree from the root by the iterative algorithm of Cooper, Harvey and Kennedy,
 * weak edges left out, as the browser's memory tools do.
 */
export async function summariseHeapSnapshot(file: string, top: number): Promise<HeapSummary> {
  const parsed = snapshotSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  const { meta } = parsed.snapshot;
  const { nodes, edges, strings } = parsed;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const typeAt = meta.node_fields.indexOf('type');
  const nameAt = meta.node_fields.indexOf('name');
  const selfAt = meta.node_fields.indexOf('self_size');
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const edgeTypeAt = meta.edge_fields.indexOf('type');
  const toAt = meta.edge_fields.indexOf('to_node');
  const nodeTypes = z.array(z.string()).parse(meta.node_types[typeAt]);
  const edgeTypes = z.array(z.string()).parse(meta.edge_types[edgeTypeAt]);
  const weak = edgeTypes.indexOf('weak');
  const count = nodes.length / nodeFields;

  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    firstEdge[i + 1] =
      (firstEdge[i] ?? 0) + (nodes[i * nodeFields + edgeCountAt] ?? 0) * edgeFields;
  }
  const targetsOf = function* (node: number) {
    for (let e = firstEdge[node] ?? 0; e < (firstEdge[node + 1] ?? 0); e += edgeFields) {
      if (edges[e + edgeTypeAt] === weak) continue;
      yield (edges[e + toAt] ?? 0) / nodeFields;
    }
  };

  // Post-order from the root (node 0), iteratively.
  const order = new Int32Array(count).fill(-1);
  const postorder: number[] = [];
  const visited = new Uint8Array(count);
  const stack: Array<[number, Generator<number>]> = [[0, targetsOf(0)]];
  visited[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (!top) break;
    const next = top[1].next();
    if (next.done) {
      order[top[0]] = postorder.length;
      postorder.push(top[0]);
      stack.pop();
    } else if (!visited[next.value]) {
      visited[next.value] = 1;
      stack.push([next.value, targetsOf(next.value)]);
    }
  }

  const predecessors: number[][] = Array.from({ length: count }, () => []);
  for (const node of postorder) {
    for (const target of targetsOf(node)) predecessors[target]?.push(node);
  }
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while ((order[a] ?? 0) < (order[b] ?? 0)) a = idom[a] ?? 0;
      while ((order[b] ?? 0) < (order[a] ?? 0)) b = idom[b] ?? 0;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = postorder.length - 2; i >= 0; i--) {
      const node = postorder[i] ?? 0;
      let dominator = -1;
      for (const from of predecessors[node] ?? []) {
        if (idom[from] === -1) continue;
        dominator = dominator === -1 ? from : intersect(from, dominator);
      }
      if (dominator !== -1 && idom[node] !== dominator) {
        idom[node] = dominator;
        changed = true;
      }
    }
  }

  const groupOf = (node: number) => {
    const type = nodeTypes[nodes[node * nodeFields + typeAt] ?? 0] ?? 'unknown';
    const name = strings[nodes[node * nodeFields + nameAt] ?? 0] ?? '';
    if (type === 'object' || type === 'native') return name.split(' ')[0] || `(${type})`;
    return `(${type})`;
  };
  const retained = new Float64Array(count);
  for (const node of postorder) {
    retained[node] = (retained[node] ?? 0) + (nodes[node * nodeFields + selfAt] ?? 0);
    if (node !== 0)
      retained[idom[node] ?? 0] = (retained[idom[node] ?? 0] ?? 0) + (retained[node] ?? 0);
  }

  const groups = new Map<string, HeapGroup>();
  for (const node of postorder) {
    if (node === 0) continue;
    const group = groupOf(node);
    const entry = groups.get(group) ?? { group, count: 0, 'self MB': 0, 'retained MB': 0 };
    entry.count += 1;
    entry['self MB'] += nodes[node * nodeFields + selfAt] ?? 0;
    // Counted once: only where its dominator is not of the same group.
    if (groupOf(idom[node] ?? 0) !== group) entry['retained MB'] += retained[node] ?? 0;
    groups.set(group, entry);
  }
  const sorted = [...groups.values()]
    .sort((a, b) => b['retained MB'] - a['retained MB'])
    .slice(0, top)
    .map((entry) => ({
      ...entry,
      'self MB': mb(entry['self MB']),
      'retained MB': mb(entry['retained MB']),
    }));
  const largest = postorder
    .filter((node) => nodeTypes[nodes[node * nodeFields + typeAt] ?? 0] !== 'synthetic')
    .sort((a, b) => (retained[b] ?? 0) - (retained[a] ?? 0))
    .slice(0, top)
    .map((node) => ({
      object: `${groupOf(node)} ${(strings[nodes[node * nodeFields + nameAt] ?? 0] ?? '').slice(0, 60)}`,
      'retained MB': mb(retained[node] ?? 0),
    }));
  return { totalMb: mb(retained[0] ?? 0), groups: sorted, largest };
}
