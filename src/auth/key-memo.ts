/**
 * Memoises a computation per (key object, algorithm): things derived from a KeyObject are
 * computed once per kid and forgotten with the key (WeakMap), never on the hot path again.
 */
export function perKeyMemo<K extends object, A, V>(compute: (key: K, a: A) => V): (key: K, a: A) => V {
  const memo = new WeakMap<K, Map<A, V>>();
  return (key, a) => {
    let byA = memo.get(key);
    if (byA === undefined) {
      byA = new Map();
      memo.set(key, byA);
    }
    let value = byA.get(a);
    if (value === undefined) {
      value = compute(key, a);
      byA.set(a, value);
    }
    return value;
  };
}
