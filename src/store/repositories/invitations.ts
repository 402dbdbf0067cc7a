import type { Role, User } from './people.ts';

export interface Invitation {
  accountId: string;
  email: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
}

/** Where an invitation link stands; only a valid one says what it is for. */
export type InvitationState = { state: 'unknown' | 'used' | 'expired' } | { state: 'valid'; invitation: Invitation };

/** Single-use links that bring a person into an account. */
export interface InvitationStore {
  /** A single-use link into the account living `ttlMs`; the token is returned here only. */
  createInvitation(input: { accountId: string; email: string; role: Role; ttlMs: number }): Promise<{
    token: string;
    invitation: Invitation;
  }>;
  /** Where the invitation stands; a valid one with its person (null when new). */
  peekInvitation(token: string): Promise<InvitationState & { user?: User | null }>;
  /** Uses the invitation once: creates the person if new (with the password hash given) and adds the membership. */
  acceptInvitation(token: string, passwordHash: string | null): Promise<InvitationState & { user?: User }>;
}
