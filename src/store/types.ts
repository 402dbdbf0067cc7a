import type { Clock, LimitsOverride, Plan, Scope } from '#common';
import type { StoreChange } from './store-change.ts';

/**
 * The persistence contract. Two implementations share one SQL schema and one test suite:
 * embedded PGlite under DATA_DIR (default) and PostgreSQL when DATABASE_URL is set.
 * Times are epoch milliseconds unless a name says seconds.
 */
/** A customer: owns projects, and its plan is theirs. */
export interface Account {
  id: string;
  name: string;
  plan: Plan;
  /** A disabled account's clients get no tokens (their outstanding ones are revoked) and its API keys are refused. */
  enabled: boolean;
  createdAt: number;
}

export interface Project {
  id: string;
  name: string;
  /** The account's plan (read with the project; it has no plan of its own). */
  plan: Plan;
  accountId: string;
  /** Whether the account is enabled (read with the project). */
  accountEnabled: boolean;
  createdAt: number;
}

/** In an existing account, or in a new account of the plan given (named after the project). */
export type NewProject = { name: string; accountId: string } | { name: string; plan: Plan };

export interface OAuthClient {
  clientId: string;
  projectId: string;
  name: string;
  scopes: Scope[];
  enabled: boolean;
  /**
   * Raised by every disable; tokens carry it as `client_gen`, and a disable's revocation entry
   * revokes every token of a lower one (migration 006).
   */
  generation: number;
  /** Hash of the 256-bit secret; the secret itself is never stored. Null for a private_key_jwt client. */
  secretHash: string | null;
  /** The public keys a private_key_jwt client signs its assertions with (RFC 7523); null for a secret client. */
  jwks: ClientKeySet | null;
  /** Its token requests must carry a DPoP proof (RFC 9449), so all its tokens are key-bound. */
  requireDpop: boolean;
  createdAt: number;
}

/** A JWK set holding public keys only (the admin input refuses private members). */
export interface ClientKeySet {
  keys: Array<Record<string, unknown>>;
}

export interface ApiKey {
  key: string;
  projectId: string;
  secretHash: string;
  /** A disabled key's calls are refused until it is enabled again (migration 013). */
  enabled: boolean;
  createdAt: number;
}

export type SigningKeyStatus = 'next' | 'active' | 'retired';

export interface SigningKey {
  kid: string;
  alg: string;
  status: SigningKeyStatus;
  /** Public JWK (public members only), as published in the key set. */
  publicJwk: Record<string, unknown>;
  /** Private JWK serialised as JSON, or an encrypted envelope when KEY_ENCRYPTION_KEY is set. */
  privateKey: string;
  createdAt: number;
  activatedAt: number | null;
  retiredAt: number | null;
}

/** One key's part of a rotation. */
export interface SigningKeyChange extends Pick<SigningKey, 'kid' | 'status' | 'activatedAt' | 'retiredAt'> {
  /** The status the key must still have for the change to apply (its status when the rotation read it). */
  readonly from?: SigningKeyStatus | undefined;
}

export type RevocationKind = 'jti' | 'client';

export interface Revocation {
  /** Monotonic position in the feed; the cursor a gateway resumes from. */
  seq: number;
  kind: RevocationKind;
  /** The token's jti, or the client id. */
  value: string;
  /** For `client`: tokens issued at or before this epoch second are revoked (tokens without `client_gen`). */
  issuedBefore: number | null;
  /** For `client`: tokens whose `client_gen` is below this are revoked; null in entries from before migration 006. */
  generation: number | null;
  /** Epoch seconds after which no token covered by the entry can be valid; then it is pruned. */
  expiresAt: number;
  createdAt: number;
}

export interface NewRevocation {
  kind: RevocationKind;
  value: string;
  issuedBefore: number | null;
  /** For `client`: the generation the disable raised the client to. */
  generation?: number | null;
  expiresAt: number;
}

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

export interface Invitation {
  accountId: string;
  email: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
}

/** Where an invitation link stands; only a valid one says what it is for. */
export type InvitationState = { state: 'unknown' | 'used' | 'expired' } | { state: 'valid'; invitation: Invitation };

/** A signed-in account portal session (the portal's cookie names it). */
export interface PortalSession {
  /** 256 random bits, base64url: the cookie value. Only its SHA-256 digest is stored. */
  id: string;
  /** Synchronizer token every state-changing form of the session carries. */
  csrfToken: string;
  expiresAt: number;
  /** One-shot notice for the next page (never a secret), as it was when the session was read. */
  flash: string | null;
  /** The person signed in; null for the operator's console (signed in with the admin token). */
  userId: string | null;
}

/** A project's plan and its override of the plan's rate limits (null: none). */
export interface ProjectPolicy {
  readonly projectId: string;
  readonly plan: Plan;
  readonly override: LimitsOverride | null;
}

/** Calls a gateway counted for a project on one UTC day, and the monthly quota it enforced. */
export interface UsageReport {
  readonly projectId: string;
  readonly day: string;
  readonly calls: number;
  readonly quota: number | null;
}

export interface DailyUsage {
  readonly day: string;
  readonly calls: number;
  readonly quota: number | null;
}

/** An entry of an account's activity log; `at` in epoch ms, `address` null when unknown. */
export interface ActivityEntry {
  at: number;
  actor: string;
  action: string;
  target: string;
  address: string | null;
}

export interface NewActivity {
  accountId: string;
  actor: string;
  action: string;
  target: string;
  address: string | null;
}

export interface Store {
  readonly kind: 'embedded' | 'postgres';

  createAccount(input: { name: string; plan: Plan }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Changes the plan and/or the enabled flag; null when there is no such account. */
  updateAccount(id: string, change: { plan?: Plan; enabled?: boolean }): Promise<Account | null>;

  /** Throws StoreError `account_not_found` for an unknown account. */
  createProject(input: NewProject): Promise<Project>;
  getProject(id: string): Promise<Project | null>;
  /** Every project, or (given an id) the account's. */
  listProjects(accountId?: string): Promise<Project[]>;
  /** Deletes the project with its clients and API keys; returns false if it did not exist. */
  deleteProject(id: string): Promise<boolean>;

  /** Exactly one of `secretHash` (a secret client) and `jwks` (a private_key_jwt client). */
  createClient(input: {
    projectId: string;
    name: string;
    scopes: Scope[];
    secretHash?: string | undefined;
    jwks?: ClientKeySet | undefined;
    requireDpop?: boolean | undefined;
  }): Promise<OAuthClient>;
  getClient(clientId: string): Promise<OAuthClient | null>;
  listClients(projectId: string): Promise<OAuthClient[]>;
  /** Disabling also raises the client's generation (in the same statement); enabling leaves it. */
  setClientEnabled(clientId: string, enabled: boolean): Promise<OAuthClient | null>;
  /**
   * Deletes the client; null for an unknown client. Its tokens are not revoked by this: disable it
   * first (the admin service does), and the revocation outlives the record.
   */
  deleteClient(clientId: string): Promise<OAuthClient | null>;
  /** Raises the client's generation (its tokens so far are to be revoked); null for an unknown client. */
  raiseClientGeneration(clientId: string): Promise<number | null>;

  /** Replaces a private_key_jwt client's key set; null when there is no such client or it has a secret. */
  setClientJwks(clientId: string, jwks: ClientKeySet): Promise<OAuthClient | null>;
  /** Makes the client's token requests need a DPoP proof, or not; null for an unknown client. */
  setClientRequireDpop(clientId: string, required: boolean): Promise<OAuthClient | null>;

  /**
   * Records a JWT id (a client assertion's, a DPoP proof's) as used within `scope` until
   * `expiresAtSec`: true the first time, false for a replay, on whichever replica it was used.
   */
  claimJti(scope: string, jti: string, expiresAtSec: number): Promise<boolean>;
  /** Forgets used JWT ids whose JWT has expired; returns how many. */
  pruneJtis(nowSeconds: number): Promise<number>;

  createApiKey(input: { projectId: string; secretHash: string }): Promise<ApiKey>;
  getApiKey(key: string): Promise<ApiKey | null>;
  /** Disables or enables the key; every replica sees it at once. Null for an unknown key. */
  setApiKeyEnabled(key: string, enabled: boolean): Promise<ApiKey | null>;
  /** Deletes the key; every replica stops accepting it at once. Null if there was none. */
  deleteApiKey(key: string): Promise<ApiKey | null>;
  /** A project's API keys, oldest first (the account portal lists them). */
  listApiKeys(projectId: string): Promise<ApiKey[]>;

  listSigningKeys(): Promise<SigningKey[]>;
  insertSigningKey(key: SigningKey): Promise<void>;
  /**
   * Applies status changes atomically (rotation moves several keys at once). A change with `from`
   * applies only while the key still has that status; otherwise nothing changes (StoreError
   * `signing_keys_changed`: a concurrent rotation got there first).
   */
  updateSigningKeys(changes: SigningKeyChange[]): Promise<void>;
  deleteSigningKey(kid: string): Promise<void>;

  addRevocation(entry: NewRevocation): Promise<Revocation>;
  /** Live entries with seq > cursor, oldest first; at most `limit` (default 1000): resume from the last seq. */
  revocationsSince(cursor: number, nowSeconds: number, limit?: number): Promise<Revocation[]>;
  /** Removes entries whose expiresAt has passed; returns how many. */
  pruneRevocations(nowSeconds: number): Promise<number>;
  /** Called after any replica adds a revocation (PostgreSQL: LISTEN/NOTIFY). Returns unsubscribe. */
  onRevocation(listener: () => void): () => void;
  /**
   * Called after any replica committed a change of an account, project, client, API key or the
   * signing keys (this replica's own before its call resolves), and with `resync` when changes
   * may have been missed. Returns unsubscribe.
   */
  onChange(listener: (change: StoreChange) => void): () => void;

  /**
   * A new portal session living `ttlMs` from now. Also prunes some expired sessions, and removes
   * the oldest beyond a fixed bound (1000) so that a loop of sign-ins cannot grow the table.
   */
  createPortalSession(ttlMs: number, userId?: string | null): Promise<PortalSession>;
  /** Ends every session of the person, but the one given (sign out everywhere, password change); returns how many. */
  deleteUserSessions(userId: string, exceptId?: string): Promise<number>;

  getUser(id: string): Promise<User | null>;
  /** By the stored form of the email (trimmed, lowercased). */
  findUserByEmail(email: string): Promise<User | null>;
  setUserPassword(id: string, passwordHash: string): Promise<boolean>;
  /** The person's accounts and roles, oldest account first. */
  listMemberships(userId: string): Promise<Membership[]>;
  listAccountPeople(accountId: string): Promise<AccountPerson[]>;
  /** Changes a member's role, or removes them (null); false when not a member. StoreError `last_owner`. */
  changeMembership(accountId: string, userId: string, role: Role | null): Promise<boolean>;
  /** A single-use link into the account living `ttlMs`; the token is returned here only. */
  createInvitation(input: { accountId: string; email: string; role: Role; ttlMs: number }): Promise<{
    token: string;
    invitation: Invitation;
  }>;
  /** Where the invitation stands; a valid one with its person (null when new). */
  peekInvitation(token: string): Promise<InvitationState & { user?: User | null }>;
  /** Uses the invitation once: creates the person if new (with the password hash given) and adds the membership. */
  acceptInvitation(token: string, passwordHash: string | null): Promise<InvitationState & { user?: User }>;
  /** The live session with this id; null when unknown, malformed or expired. */
  getPortalSession(id: string): Promise<PortalSession | null>;
  /** Sets the session's one-shot notice; false when the session is not live. */
  setPortalSessionFlash(id: string, flash: string): Promise<boolean>;
  /** Clears the notice and returns it; of concurrent takers (any replica) only one gets it. */
  takePortalSessionFlash(id: string): Promise<string | null>;
  /** Ends the session (sign-out); false when there was none. */
  deletePortalSession(id: string): Promise<boolean>;
  /** Removes at most `limit` (default 100) expired sessions; returns how many. */
  prunePortalSessions(limit?: number): Promise<number>;

  /** Sets a project's rate-limit override, or removes it (null); false when the project does not exist. */
  setProjectLimits(projectId: string, override: LimitsOverride | null): Promise<boolean>;
  /** Every project's plan and override (the gateways' policy feed). */
  projectPolicies(): Promise<ProjectPolicy[]>;
  /** Every API key with its project (the policy feed: key/secret calls count against their project). */
  apiKeyProjects(): Promise<Array<{ key: string; projectId: string }>>;
  /** Adds calls counted by a gateway; counts for a project that no longer exists are dropped. */
  addUsage(reports: readonly UsageReport[]): Promise<void>;
  /** A project's daily counts from `fromDay` to `toDay` inclusive (`YYYY-MM-DD`), oldest first. */
  usageBetween(projectId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;

  /** Appends to an account's activity log (stamped now); refused for an unknown account. */
  addActivity(entry: NewActivity): Promise<void>;
  /** The account's latest `limit` activity entries, newest first. */
  listActivity(accountId: string, limit: number): Promise<ActivityEntry[]>;

  /** Resolves once the database answers a trivial query (readiness); rejects like any call when it does not. */
  ping(): Promise<void>;

  close(): Promise<void>;
}

export interface StoreOptions {
  /** Embedded data directory (DATA_DIR). */
  dataDir: string;
  /** PostgreSQL connection string (DATABASE_URL); unset means embedded. */
  databaseUrl?: string | undefined;
  /**
   * PostgreSQL only: schema to create if missing and use (search_path) for every table.
   * Unset: the connection's default search_path (normally `public`). Lowercase identifier.
   */
  schema?: string | undefined;
  /** PostgreSQL only: bound on connecting and on each statement, in ms; a call past it rejects. Default 5000. */
  timeoutMs?: number | undefined;
  /** Source of `createdAt` times; default: the system clock. */
  clock?: Clock | undefined;
}
