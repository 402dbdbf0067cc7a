/** A value in a readable line: `-` for none. */
export function text(value: string | null | undefined): string {
  return value ?? '-';
}
