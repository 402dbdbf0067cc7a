import type { Role } from '#store';

/**
 * Who asks for an admin operation. Every operation takes one, checks on the server what it may
 * see and change, and logs it beside what it did. Plain data, never a secret: a session is named
 * by a label derived from its id, not by the id (the cookie value).
 */
export type Actor =
  /** The operator, holding the admin token: the admin API (and so `tokengate admin`). */
  | { readonly kind: 'operator'; readonly address: string }
  /** The operator signed in to the console with the admin token. */
  | { readonly kind: 'console'; readonly session: string; readonly address: string }
  /** A person signed in to the account portal: sees and changes only their accounts, per role. */
  | {
      readonly kind: 'person';
      readonly userId: string;
      readonly email: string;
      /** Account id → the person's role there, read at the start of the request. */
      readonly roles: Readonly<Record<string, Role>>;
      readonly session: string;
      readonly address: string;
    };

export type PersonActor = Extract<Actor, { kind: 'person' }>;
