// The order in which a java.util.HashMap of string keys iterates: Trino's JSON_OBJECT collects its
// members in one, so `json_object('key_1' : 1, 'key_2' : 2)` is `{"key_2":2,"key_1":1}` there. Keys go
// to bucket (h ^ h >>> 16) & (capacity - 1), h being String.hashCode(); a bucket keeps insertion
// order (a resize splits buckets without reordering them); the capacity starts at 16 and doubles
// whenever the size exceeds three quarters of it.

function javaStringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/** The keys (distinct, in insertion order) in the order a HashMap holding them iterates. */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const bucket = (key: string) => {
    const h = javaStringHash(key);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return keys
    .map((key, position) => ({ key, position, bucket: bucket(key) }))
    .sort((a, b) => a.bucket - b.bucket || a.position - b.position)
    .map((entry) => entry.key);
}
