/**
 * Who asks for an admin operation. Every operation takes one and logs it beside what it did;
 * it is where per-account roles will be checked and the audit trail ("who did what, when, from
 * which address") written. Plain data, never a secret: a portal session is named by a label
 * derived from its id, not by the id (the cookie value).
 */
export type Actor =
  /** The operator, holding the admin token: the admin API, and so `tokengate admin`. */
  | { readonly kind: 'operator'; readonly address: string }
  /** A person signed in to the account portal. */
  | { readonly kind: 'portal'; readonly session: string; readonly address: string };
