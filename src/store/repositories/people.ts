export type Role = 'owner' | 'developer' | 'viewer';

/** A person who signs in to the account portal. */
export interface User {
  id: string;
  /** Trimmed and lowercased. */
  email: string;
  /** `scrypt$N$r$p$salt$key`; null until the person accepts an invitation. */
  passwordHash: string | null;
  createdAt: number;
}

export interface Membership {
  accountId: string;
  role: Role;
}

/** A member of an account, as its people page lists them. */
export interface AccountPerson {
  userId: string;
  email: string;
  role: Role;
  /** When they joined the account. */
  since: number;
}

/** The people who sign in to the account portal, and their roles in the accounts. */
export interface PeopleStore {
  getUser(id: string): Promise<User | null>;
  /** By the stored form of the email (trimmed, lowercased). */
  findUserByEmail(email: string): Promise<User | null>;
  setUserPassword(id: string, passwordHash: string): Promise<boolean>;
  /** The person's accounts and roles, oldest account first. */
  listMemberships(userId: string): Promise<Membership[]>;
  listAccountPeople(accountId: string): Promise<AccountPerson[]>;
  /** Changes a member's role, or removes them (null); false when not a member. StoreError `last_owner`. */
  changeMembership(accountId: string, userId: string, role: Role | null): Promise<boolean>;
}
