/**
 * A Map of string keys split over many small Maps. A Map grows by copying every entry into a new
 * table at once: at half a million entries (a big lockfile's keys, or its objects) one such copy
 * holds the event loop tens of milliseconds, in one go that no step can cut. Small Maps grow a
 * little at a time. Iteration goes shard by shard, so its order is not the order of insertion.
 */
export class ShardedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());

  get(key: string): V | undefined {
    return this.shards[shardOf(key)].get(key);
  }

  has(key: string): boolean {
    return this.shards[shardOf(key)].has(key);
  }

  set(key: string, value: V): this {
    this.shards[shardOf(key)].set(key, value);
    return this;
  }

  *entries(): Generator<[string, V], void, void> {
    for (const shard of this.shards) yield* shard;
  }
}

/** 256 shards (a power of two): 500,000 keys make about 2,000 a shard, whose growth is a few microseconds. */
const SHARDS = 256;

/**
 * A shard from the key's length and last four characters: keys of one lockfile share long
 * beginnings and differ at their ends (`…#d41`, `cloud:vm/41`). Cheap, for it runs on every
 * lookup; keys alike at their ends only crowd fewer shards.
 */
function shardOf(key: string): number {
  const n = key.length;
  const h = Math.imul(key.charCodeAt(n - 1) | 0, 31) + Math.imul(key.charCodeAt(n - 2) | 0, 131) + Math.imul(key.charCodeAt(n - 3) | 0, 1031) + Math.imul(key.charCodeAt(n - 4) | 0, 8191) + n;
  return (h ^ (h >>> 8)) & (SHARDS - 1);
}
