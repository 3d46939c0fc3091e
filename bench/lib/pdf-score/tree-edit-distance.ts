/**
 * Tree edit distance between ordered labelled trees (Zhang & Shasha 1989): the least total cost of deleting,
 * inserting and renaming nodes that turns one tree into the other. Deleting a node moves its children up to its
 * parent, in place. The evaluator uses APTED (Pawlik & Augsten) with insert = delete = 1 and its own rename cost;
 * APTED and Zhang–Shasha compute the same optimum, they differ only in how fast.
 *
 * Time: Σ over the pairs of key roots of the product of their subtree sizes, O(n·m) for shallow trees like
 * tables (table/tr/td) and heading outlines. Memory: one (n+1)×(m+1) matrix of tree distances and one of forest
 * distances.
 */

export interface Tree<T> {
  readonly value: T;
  readonly children: readonly Tree<T>[];
}

export interface EditCosts<T> {
  /** Cost of turning a's label into b's; 0 when they are the same. */
  rename(a: T, b: T): number;
  /** @default 1 */
  delete?(a: T): number;
  /** @default 1 */
  insert?(b: T): number;
}

interface Postorder<T> {
  values: T[];
  /** Post-order index of each node's leftmost leaf. */
  leftmost: Int32Array;
  /** The highest node of each leftmost leaf: the root and every node that has a left sibling. */
  keyroots: number[];
}

function postorder<T>(tree: Tree<T>): Postorder<T> {
  const values: T[] = [];
  const leftmost: number[] = [];
  const visit = (node: Tree<T>): number => {
    let first = -1;
    for (const child of node.children) {
      const childLeftmost = visit(child);
      if (first < 0) first = childLeftmost;
    }
    const index = values.length;
    values.push(node.value);
    leftmost.push(first < 0 ? index : first);
    return leftmost[index] as number;
  };
  // Recursion is fine: these trees are three or four levels deep.
  visit(tree);
  const seen = new Set<number>();
  const keyroots: number[] = [];
  for (let i = values.length - 1; i >= 0; i--) {
    const l = leftmost[i] as number;
    if (!seen.has(l)) {
      seen.add(l);
      keyroots.push(i);
    }
  }
  keyroots.sort((x, y) => x - y);
  return { values, leftmost: Int32Array.from(leftmost), keyroots };
}

export function countNodes<T>(tree: Tree<T>): number {
  let n = 1;
  for (const child of tree.children) n += countNodes(child);
  return n;
}

export function treeEditDistance<T>(a: Tree<T>, b: Tree<T>, costs: EditCosts<T>): number {
  const A = postorder(a);
  const B = postorder(b);
  const n = A.values.length;
  const m = B.values.length;
  const del = new Float64Array(n);
  const ins = new Float64Array(m);
  for (let i = 0; i < n; i++) del[i] = costs.delete ? costs.delete(A.values[i] as T) : 1;
  for (let j = 0; j < m; j++) ins[j] = costs.insert ? costs.insert(B.values[j] as T) : 1;
  // Rename costs are asked for again and again; text costs are expensive, so each pair is computed once.
  const renameCache = new Float64Array(n * m).fill(-1);
  const rename = (i: number, j: number): number => {
    const k = i * m + j;
    let cost = renameCache[k] as number;
    if (cost < 0) renameCache[k] = cost = costs.rename(A.values[i] as T, B.values[j] as T);
    return cost;
  };

  const treedist = new Float64Array(n * m);
  const cols = m + 1;
  const forest = new Float64Array((n + 1) * cols);
  for (const i of A.keyroots) {
    for (const j of B.keyroots) {
      const li = A.leftmost[i] as number;
      const lj = B.leftmost[j] as number;
      // forest[(x - li + 1) * cols + (y - lj + 1)]: distance between the forests li..x and lj..y.
      forest[0] = 0;
      for (let x = li; x <= i; x++) forest[(x - li + 1) * cols] = (forest[(x - li) * cols] as number) + (del[x] as number);
      for (let y = lj; y <= j; y++) forest[y - lj + 1] = (forest[y - lj] as number) + (ins[y] as number);
      for (let x = li; x <= i; x++) {
        const row = (x - li + 1) * cols;
        const previousRow = (x - li) * cols;
        const lx = A.leftmost[x] as number;
        for (let y = lj; y <= j; y++) {
          const col = y - lj + 1;
          const ly = B.leftmost[y] as number;
          const removeX = (forest[previousRow + col] as number) + (del[x] as number);
          const insertY = (forest[row + col - 1] as number) + (ins[y] as number);
          if (lx === li && ly === lj) {
            // Both forests are whole trees rooted at x and y.
            const best = Math.min(removeX, insertY, (forest[previousRow + col - 1] as number) + rename(x, y));
            forest[row + col] = best;
            treedist[x * m + y] = best;
          } else {
            const before = (forest[(lx - li) * cols + (ly - lj)] as number) + (treedist[x * m + y] as number);
            forest[row + col] = Math.min(removeX, insertY, before);
          }
        }
      }
    }
  }
  return treedist[(n - 1) * m + (m - 1)] as number;
}
