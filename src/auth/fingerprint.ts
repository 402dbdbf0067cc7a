/**
 * A cheap small-integer key for a token: FNV-1a over a string's length and its last characters
 * (the signature's tail, random for real signatures), folded to 30 bits so V8 keeps it a Smi.
 * The token caches key their maps by it instead of by the ~800-char token string, which V8
 * would hash in full on every request (each request's header is a fresh string). It is only
 * an index: a cache entry keeps its token and a hit needs the whole string to be equal, so a
 * collision (or a crafted one) costs a miss, never a wrong answer.
 *
 * The verifier computes it once per request, from the whole Authorization value: that string
 * is flat, while the token is a slice of it, which V8 reads about 1.5x slower char by char.
 * Clients send `Bearer` and one space (extractor.ts accepts more): one token sent with one space
 * always has one fingerprint; sent with more, it has another, and is verified and cached once
 * more under it (a hit still needs the whole token equal).
 * 16 base64url characters are 96 random bits: more would only lengthen the multiply chain.
 */
const TAIL = 16;

export function fingerprint(text: string): number {
  let hash = Math.imul(0x811c9dc5 ^ text.length, 0x01000193);
  for (let i = Math.max(0, text.length - TAIL); i < text.length; i++)
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
