/** The one form an email is stored and compared in: trimmed, lowercased. */
export function normalEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A plain shape check (one @, a dot in the domain, no spaces, at most 254 characters). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@"<>]{1,64}@[^\s@"<>]+\.[^\s@"<>.]+$/.test(value);
}
