/**
 * The admin API and the CLI carry the admin token in `Authorization: Bearer <token>`, one word
 * of visible characters. A token with whitespace or a control character would sign in to the
 * portal but never to the API (every CLI command a 401), and one with a character past U+00FF
 * cannot be put in a header at all (fetch refuses it): so either is refused where it is read,
 * from ADMIN_TOKEN or from the token file.
 */
export const ADMIN_TOKEN_RULE =
  'the admin token must be one word of visible characters (ASCII or Latin-1), with no whitespace or control characters (it is sent as "Authorization: Bearer <token>")';

export function adminTokenUnusable(source: string): string {
  return `${source}: ${ADMIN_TOKEN_RULE}`;
}

export const ADMIN_TOKEN_UNUSABLE = adminTokenUnusable('ADMIN_TOKEN');

export function isUsableAdminToken(token: string): boolean {
  return /^[\x21-\x7e\u00a1-\u00ff]+$/.test(token);
}
