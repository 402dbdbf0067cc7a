/**
 * How many lines of one header field a request had: 0, 1 or 2 (two or more). Node keeps the first
 * line of a field such as Host or Authorization in `req.headers` and drops the rest without a
 * word, while a server behind another proxy might take the last: two parties reading two values is
 * how confusion starts, so such a request is refused. Only names of the field's length are
 * compared, so a scan costs a length check per header; the usual spelling and the lower-case one
 * are tried before a lower-cased copy is made.
 */
export function fieldLines(rawHeaders: readonly string[], lower: string, usual: string): number {
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length !== lower.length || (name !== usual && name !== lower && name.toLowerCase() !== lower)) continue;
    if (++lines > 1) return lines;
  }
  return lines;
}
