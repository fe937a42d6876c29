// An ordered list whose entries are found by key in O(1), so a keyed
// adjustment (env by name, mounts by destination, devices by path, rlimits
// by type) is applied in one pass instead of one scan of the list per entry.
// Removed entries leave a hole that toArray() drops, keeping the order.
export class KeyedList<T> {
  private readonly items: (T | undefined)[] = [];
  private readonly at = new Map<string, number[]>();

  constructor(
    items: readonly T[],
    private readonly keyOf: (t: T) => string,
  ) {
    for (const item of items) this.push(item);
  }

  private push(item: T): void {
    const key = this.keyOf(item);
    const idx = this.at.get(key);
    if (idx) idx.push(this.items.length);
    else this.at.set(key, [this.items.length]);
    this.items.push(item);
  }

  /** Drops every entry with this key. */
  remove(key: string): void {
    for (const i of this.at.get(key) ?? []) this.items[i] = undefined;
    this.at.delete(key);
  }

  /** Replaces the first entry with this key where it stands, or appends the item. */
  replace(key: string, item: T): void {
    const idx = this.at.get(key);
    if (idx?.length) this.items[idx[0]] = item;
    else this.push(item);
  }

  /** Drops every entry with this key and appends the item at the end. */
  append(key: string, item: T): void {
    this.remove(key);
    this.push(item);
  }

  toArray(): T[] {
    return this.items.filter((x): x is T => x !== undefined);
  }
}
