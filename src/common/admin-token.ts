/**
 * The admin API and the CLI carry the admin token in `Authorization: Bearer <token>`, one word
 * of visible characters: a token with whitespace or a control character would sign in to the
 * portal but never to the API (every CLI command a 401), so it is refused where it is read.
 */
export const ADMIN_TOKEN_UNUSABLE = 'ADMIN_TOKEN: must not contain whitespace or control characters (it is sent as "Authorization: Bearer <token>")';

export function isUsableAdminToken(token: string): boolean {
  return !/[\s\p{Cc}]/u.test(token);
}
