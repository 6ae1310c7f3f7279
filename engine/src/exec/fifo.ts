// A first-in first-out queue that takes from its front in constant time. Array.prototype.shift
// moves every remaining element, so draining a long array one item at a time costs quadratic time
// (100,000 splits taken one by one held the event loop for seconds).

/** Taken items are dropped from the array once they are at least this many and half of it. */
const COMPACT_AFTER = 1024;

export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The first item, removed; undefined when empty. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) this.clear();
    else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** The last item, removed (taking from the back, as a thread steals work); undefined when empty. */
  pop(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items.pop();
    if (this.head === this.items.length) this.clear();
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
