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
  /** Password given, second factor not yet: the session opens the second-factor page alone. */
  pending: boolean;
  /** When a request last used it (updated at most once a minute). */
  lastSeenAt: number;
}

export interface NewSessionOptions {
  /** A session waiting for its person's second factor. */
  readonly pending?: boolean | undefined;
  /** The browser's User-Agent (cut to 300 characters) and the address it signed in from: the list of sessions shows them. */
  readonly userAgent?: string | undefined;
  readonly address?: string | undefined;
}

/** One of a person's live sessions as their list shows it; `seq` names it (never the id, which is the cookie). */
export interface SessionListing {
  seq: number;
  /** The digest of its id: the portal tells the current session by it. */
  idHash: string;
  userAgent: string | null;
  address: string | null;
  createdAt: number;
  lastSeenAt: number;
}

/** The portal's and console's sessions (any replica on the database serves them). */
export interface PortalSessionStore {
  /**
   * A new portal session living `ttlMs` from now. Also prunes some expired sessions, and removes
   * the oldest beyond a fixed bound (1000) so that a loop of sign-ins cannot grow the table.
   */
  createPortalSession(ttlMs: number, userId?: string | null, options?: NewSessionOptions): Promise<PortalSession>;
  /** The person's live sessions that are past the second factor, most recently used first. */
  listUserSessions(userId: string): Promise<SessionListing[]>;
  /** Ends the person's session named by `seq`; false when they have none such. */
  deleteUserSession(userId: string, seq: number): Promise<boolean>;
  /** Notes a request of the session (at most once a minute) and the address it came from. */
  touchPortalSession(id: string, address: string): Promise<void>;
  /** Ends every session of the person, but the one given (sign out everywhere, password change); returns how many. */
  deleteUserSessions(userId: string, exceptId?: string): Promise<number>;
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
}
