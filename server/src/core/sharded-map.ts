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

/** 256 shards: 500,000 keys make about 2,000 a shard, whose growth is a few microseconds. */
const SHARDS = 256;

/** FNV-1a of the key's last 16 characters (keys of one lockfile share long beginnings), to a shard. */
function shardOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, key.length - 16); i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}
