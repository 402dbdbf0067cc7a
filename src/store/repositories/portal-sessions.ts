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

/** The portal's and console's sessions (any replica on the database serves them). */
export interface PortalSessionStore {
  /**
   * A new portal session living `ttlMs` from now. Also prunes some expired sessions, and removes
   * the oldest beyond a fixed bound (1000) so that a loop of sign-ins cannot grow the table.
   */
  createPortalSession(ttlMs: number, userId?: string | null): Promise<PortalSession>;
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
