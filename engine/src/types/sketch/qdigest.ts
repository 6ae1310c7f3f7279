// Trino's quantile digest (airlift's QuantileDigest: Shrivastava et al., "Medians and beyond"), with
// the same tree, the same compression schedule and the same bytes, so a digest built here casts to
// the varbinary Trino would produce and Trino's bytes read back here.
//
// The tree is a binary trie over 64-bit keys (qdigest-bits.ts): a node at level L covers the keys
// that agree with its key above bit L; a leaf at level 0 is one key. Counts sit on any node. When
// the total weight crosses a multiple of the compression factor k = (root level + 1) / maxError, a
// post-order pass folds a node's children into it while node + children weigh less than total / k:
// the rank error of any answer stays within maxError of the total.
//
// Serialized (little-endian): format byte 0, maxError and alpha (doubles), landmark, min and max
// (longs; min and max are the values, not keys), node count (int), then the nodes in left-right
// post-order, each a byte (bit 0 has-left, bit 1 has-right, bits 2..7 the level, less one for a node
// with children), its count (double) and its key (long).

import { EngineError } from '../../errors/engine-error.js';
import { type Key, bitAt, compareKeys, differingBits, rangeEnd, sameAbove } from './qdigest-bits.js';

const ZERO_WEIGHT = 1e-5;
const MAX_INT = 2147483647;
const HEADER_BYTES = 1 + 8 + 8 + 8 + 8 + 8 + 4;
const NODE_BYTES = 1 + 8 + 8;
const HAS_LEFT = 1;
const HAS_RIGHT = 2;

class DigestNode {
  left: DigestNode | null = null;
  right: DigestNode | null = null;

  constructor(
    readonly hi: number,
    readonly lo: number,
    readonly level: number,
    public count: number,
  ) {}
}

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot deserialize qdigest: ${message}`);
}

/** Visits nodes in post-order (left first when forward) until `visit` returns false; whether it ran to the end. */
function postOrder(node: DigestNode | null, forward: boolean, visit: (node: DigestNode) => boolean): boolean {
  if (node === null) return true;
  const first = forward ? node.left : node.right;
  const second = forward ? node.right : node.left;
  if (first !== null && !postOrder(first, forward, visit)) return false;
  if (second !== null && !postOrder(second, forward, visit)) return false;
  return visit(node);
}

export class QuantileDigest {
  private root: DigestNode | null = null;
  private nodeCount = 0;
  private weightedCount = 0;
  // The smallest and largest keys added (the empty digest's are Long.MAX_VALUE and Long.MIN_VALUE).
  private min: Key = { hi: 0xffffffff, lo: 0xffffffff };
  private max: Key = { hi: 0, lo: 0 };

  constructor(readonly maxError: number) {}

  get count(): number {
    return this.weightedCount;
  }

  add(key: Key, weight: number): void {
    if (compareKeys(key.hi, key.lo, this.max.hi, this.max.lo) > 0) this.max = key;
    if (compareKeys(key.hi, key.lo, this.min.hi, this.min.lo) < 0) this.min = key;
    const before = this.weightedCount;
    this.insert(key.hi, key.lo, weight);
    const k = this.compressionFactor();
    if (Math.floor(Math.trunc(before) / k) !== Math.floor(Math.trunc(this.weightedCount) / k)) this.compress();
  }

  /** Adds every count of `other` (unchanged) into this digest. */
  mergeWith(other: QuantileDigest): void {
    this.root = this.mergeNodes(this.root, other.root);
    if (compareKeys(other.max.hi, other.max.lo, this.max.hi, this.max.lo) > 0) this.max = other.max;
    if (compareKeys(other.min.hi, other.min.lo, this.min.hi, this.min.lo) < 0) this.min = other.min;
    this.compress();
  }

  /** The key whose rank is about quantile * count: the upper end of the first post-order node past that weight. */
  valueAt(quantile: number): Key {
    if (!(quantile >= 0 && quantile <= 1)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'quantile must be between [0,1]');
    const target = quantile * this.weightedCount;
    let sum = 0;
    let found: Key | undefined;
    postOrder(this.root, true, (node) => {
      sum += node.count;
      if (sum <= target) return true;
      found = rangeEnd(node.hi, node.lo, node.level, true);
      return false;
    });
    return found === undefined || compareKeys(found.hi, found.lo, this.max.hi, this.max.lo) > 0 ? this.max : found;
  }

  /** The share of the weight in nodes wholly below `key`; undefined when empty or `key` lies outside the digest's range. */
  quantileAt(key: Key): number | undefined {
    if (this.weightedCount === 0) return undefined;
    const low = this.boundOfFirstWeighted(true);
    const high = this.boundOfFirstWeighted(false);
    if (compareKeys(key.hi, key.lo, low.hi, low.lo) < 0 || compareKeys(key.hi, key.lo, high.hi, high.lo) > 0) return undefined;
    let below = 0;
    postOrder(this.root, true, (node) => {
      const upper = rangeEnd(node.hi, node.lo, node.level, true);
      if (compareKeys(key.hi, key.lo, upper.hi, upper.lo) <= 0) return false;
      below += node.count;
      return true;
    });
    return below / this.weightedCount;
  }

  /** getMin (forward) or getMax: the range end of the first node with weight, capped by the key seen. */
  private boundOfFirstWeighted(lowest: boolean): Key {
    const seen = lowest ? this.min : this.max;
    let bound = seen;
    postOrder(this.root, lowest, (node) => {
      if (node.count < ZERO_WEIGHT) return true;
      bound = rangeEnd(node.hi, node.lo, node.level, !lowest);
      return false;
    });
    const order = compareKeys(bound.hi, bound.lo, seen.hi, seen.lo);
    return (lowest ? order > 0 : order < 0) ? bound : seen;
  }

  private insert(hi: number, lo: number, weight: number): void {
    if (weight < ZERO_WEIGHT) return;
    let parent: DigestNode | null = null;
    let right = false;
    let current = this.root;
    for (;;) {
      if (current === null) {
        this.attach(parent, right, this.createNode(hi, lo, 0, weight));
        return;
      }
      if (!sameAbove(hi, lo, current.hi, current.lo, current.level)) {
        this.attach(parent, right, this.makeSiblings(current, this.createNode(hi, lo, 0, weight)));
        return;
      }
      if (current.level === 0 && current.hi === hi && current.lo === lo) {
        current.count += weight;
        this.weightedCount += weight;
        return;
      }
      parent = current;
      right = bitAt(hi, lo, current.level - 1) === 1;
      current = right ? current.right : current.left;
    }
  }

  private attach(parent: DigestNode | null, right: boolean, child: DigestNode): void {
    if (parent === null) this.root = child;
    else if (right) parent.right = child;
    else parent.left = child;
  }

  /** A new count-0 parent of two disjoint subtrees, keyed like `first`, at the level where their keys part. */
  private makeSiblings(first: DigestNode, second: DigestNode): DigestNode {
    const level = differingBits(first.hi, first.lo, second.hi, second.lo);
    const parent = this.createNode(first.hi, first.lo, level, 0);
    const firstGoesRight = bitAt(first.hi, first.lo, level - 1) === 1;
    parent.left = firstGoesRight ? second : first;
    parent.right = firstGoesRight ? first : second;
    return parent;
  }

  private createNode(hi: number, lo: number, level: number, count: number): DigestNode {
    this.nodeCount++;
    this.weightedCount += count;
    return new DigestNode(hi, lo, level, count);
  }

  private copy(node: DigestNode | null): DigestNode | null {
    if (node === null) return null;
    const result = this.createNode(node.hi, node.lo, node.level, node.count);
    result.left = this.copy(node.left);
    result.right = this.copy(node.right);
    return result;
  }

  private mergeNodes(node: DigestNode | null, other: DigestNode | null): DigestNode | null {
    if (other === null) return node;
    if (node === null) return this.copy(other);
    if (!sameAbove(node.hi, node.lo, other.hi, other.lo, Math.max(node.level, other.level))) {
      return this.makeSiblings(node, this.copy(other) as DigestNode);
    }
    if (node.level > other.level) {
      if (bitAt(other.hi, other.lo, node.level - 1) === 0) node.left = this.mergeNodes(node.left, other);
      else node.right = this.mergeNodes(node.right, other);
      return node;
    }
    if (node.level < other.level) {
      const nodeGoesRight = bitAt(node.hi, node.lo, other.level - 1) === 1;
      const left = nodeGoesRight ? this.copy(other.left) : this.mergeNodes(node, other.left);
      const right = nodeGoesRight ? this.mergeNodes(node, other.right) : this.copy(other.right);
      const result = this.createNode(other.hi, other.lo, other.level, other.count);
      result.left = left;
      result.right = right;
      return result;
    }
    this.weightedCount += other.count;
    node.count += other.count;
    node.left = this.mergeNodes(node.left, other.left);
    node.right = this.mergeNodes(node.right, other.right);
    return node;
  }

  private compressionFactor(): number {
    if (this.root === null) return 1;
    return Math.max(Math.min(Math.trunc((this.root.level + 1) / this.maxError), MAX_INT), 1);
  }

  private compress(): void {
    const bound = Math.floor(this.weightedCount / this.compressionFactor());
    postOrder(this.root, true, (node) => {
      const { left, right } = node;
      if (left === null && right === null) return true;
      const leftCount = left === null ? 0 : left.count;
      const rightCount = right === null ? 0 : right.count;
      const fold = node.count + leftCount + rightCount < bound;
      if (left !== null && (fold || leftCount < ZERO_WEIGHT)) {
        node.left = this.detach(left);
        node.count += leftCount;
      }
      if (right !== null && (fold || rightCount < ZERO_WEIGHT)) {
        node.right = this.detach(right);
        node.count += rightCount;
      }
      return true;
    });
    if (this.root !== null && this.root.count < ZERO_WEIGHT) this.root = this.detach(this.root);
  }

  /** Takes a node's count away: a leaf goes, a node with one child gives way to it, one with two stays at count 0. */
  private detach(node: DigestNode): DigestNode | null {
    if (node.left !== null && node.right !== null) {
      node.count = 0;
      return node;
    }
    this.nodeCount--;
    return node.left ?? node.right;
  }

  serialize(): Uint8Array {
    this.compress();
    const bytes = new Uint8Array(HEADER_BYTES + NODE_BYTES * this.nodeCount);
    const view = new DataView(bytes.buffer);
    view.setFloat64(1, this.maxError, true);
    // alpha (no decay) and landmark stay 0
    this.writeLong(view, 25, { hi: (this.min.hi ^ 0x80000000) >>> 0, lo: this.min.lo });
    this.writeLong(view, 33, { hi: (this.max.hi ^ 0x80000000) >>> 0, lo: this.max.lo });
    view.setInt32(41, this.nodeCount, true);
    let offset = HEADER_BYTES;
    postOrder(this.root, true, (node) => {
      const flags = (node.left !== null ? HAS_LEFT : 0) | (node.right !== null ? HAS_RIGHT : 0);
      view.setUint8(offset, (Math.max(node.level - 1, 0) << 2) | flags);
      view.setFloat64(offset + 1, node.count, true);
      this.writeLong(view, offset + 9, node);
      offset += NODE_BYTES;
      return true;
    });
    return bytes;
  }

  private writeLong(view: DataView, offset: number, words: Key): void {
    view.setUint32(offset, words.lo, true);
    view.setUint32(offset + 4, words.hi, true);
  }

  static deserialize(bytes: Uint8Array): QuantileDigest {
    if (bytes.length < HEADER_BYTES) throw invalid('too short');
    if (bytes[0] !== 0) throw invalid('Invalid format');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const maxError = view.getFloat64(1, true);
    if (!(maxError >= 0 && maxError <= 1)) throw invalid('maxError must be in range [0, 1]');
    if (view.getFloat64(9, true) !== 0)
      throw new EngineError('NOT_SUPPORTED', 'qdigest with exponential decay (alpha other than 0) is not supported');
    const readKey = (offset: number): Key => ({
      hi: (view.getUint32(offset + 4, true) ^ 0x80000000) >>> 0,
      lo: view.getUint32(offset, true),
    });
    const digest = new QuantileDigest(maxError);
    digest.min = readKey(25);
    digest.max = readKey(33);
    const nodeCount = view.getInt32(41, true);
    if (nodeCount < 0 || bytes.length < HEADER_BYTES + NODE_BYTES * nodeCount) throw invalid('wrong length for its node count');
    const stack: DigestNode[] = [];
    for (let i = 0, offset = HEADER_BYTES; i < nodeCount; i++, offset += NODE_BYTES) {
      const structure = view.getUint8(offset);
      const hasLeft = (structure & HAS_LEFT) !== 0;
      const hasRight = (structure & HAS_RIGHT) !== 0;
      const level = (structure >>> 2) + (hasLeft || hasRight ? 1 : 0);
      const node = new DigestNode(
        view.getUint32(offset + 13, true),
        view.getUint32(offset + 9, true),
        level,
        view.getFloat64(offset + 1, true),
      );
      if (hasRight) node.right = stack.pop() ?? null;
      if (hasLeft) node.left = stack.pop() ?? null;
      if ((hasRight && node.right === null) || (hasLeft && node.left === null))
        throw invalid('Tree is corrupted. A node lacks its children');
      // as in every digest written: so no path is longer than 65 nodes
      if ((node.left !== null && node.left.level >= level) || (node.right !== null && node.right.level >= level))
        throw invalid('Tree is corrupted. A child is not below its parent');
      stack.push(node);
      digest.weightedCount += node.count;
    }
    if (stack.length > 1) throw invalid('Tree is corrupted. Expected a single root node');
    digest.root = stack[0] ?? null;
    digest.nodeCount = nodeCount;
    return digest;
  }

  sizeInBytes(): number {
    return 64 + this.nodeCount * 48;
  }
}
