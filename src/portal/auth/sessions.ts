import { randomBytes } from 'node:crypto';
import type { NewSessionOptions, PortalSession, PortalSessionStore, SessionListing } from '#store';

export const SESSION_COOKIE = 'tokengate_portal';
export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** A session waiting for the second factor lives this long: time to open the app and type a code. */
export const PENDING_SESSION_TTL_MS = 10 * 60 * 1000;
/** A request notes the session's last use when the note is older than this (one write a minute at most). */
const TOUCH_AFTER_MS = 60_000;

/** A signed-in person's session, as read at the start of the request. */
export interface Session {
  readonly id: string;
  /** Synchronizer token every state-changing form of this session carries. */
  readonly csrfToken: string;
  readonly expiresAt: number;
  /** The person signed in (account portal); null for the operator's console. */
  readonly userId: string | null;
  /** Whether a one-shot notice waits: only then does showing a page cost a query to take it. */
  hasNotice: boolean;
  /** Password given, second factor not yet: only the second-factor page opens. */
  readonly pending: boolean;
  readonly lastSeenAt: number;
}

/** 256 random bits, base64url: the sign-in form's nonce. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Sessions live in the store, so every upstream replica on one database serves them and a restart
 * signs nobody out; the store keeps only a digest of the id and bounds how many exist. Each method
 * rejects when the store does, and the portal answers its error page.
 */
export interface Sessions {
  readonly ttlMs: number;
  /** The live session the cookie names, or undefined (none, unknown, malformed or expired). */
  find(id: string | undefined): Promise<Session | undefined>;
  /** A person's session, or the operator's (null); a pending one lives 10 minutes. */
  create(userId: string | null, options?: NewSessionOptions): Promise<Session>;
  /** The person's signed-in sessions, most recently used first. */
  list(userId: string): Promise<SessionListing[]>;
  /** Ends one of the person's sessions, named by its `seq`; false when there is none such. */
  endOne(userId: string, seq: number): Promise<boolean>;
  /** Notes a request of the session from this address (a write only when the last note is a minute old). */
  touch(session: Session, address: string): Promise<void>;
  end(session: Session): Promise<void>;
  /** Ends every other session of the session's person (sign out everywhere, a password change). */
  endOthers(session: Session): Promise<number>;
  /** A notice for the next page shown, whichever replica shows it. */
  setNotice(session: Session, notice: string): Promise<void>;
  /** Takes the notice: it is shown once, even when two pages are rendered at once. */
  takeNotice(session: Session): Promise<string | undefined>;
}

export function storeSessions(store: PortalSessionStore, ttlMs: number): Sessions {
  return {
    ttlMs,
    async find(id) {
      const found = id ? await store.getPortalSession(id) : null;
      return found ? toSession(found) : undefined;
    },
    create: async (userId, options) =>
      toSession(await store.createPortalSession(options?.pending ? PENDING_SESSION_TTL_MS : ttlMs, userId, options)),
    list: (userId) => store.listUserSessions(userId),
    endOne: (userId, seq) => store.deleteUserSession(userId, seq),
    async touch(session, address) {
      if (Date.now() - session.lastSeenAt >= TOUCH_AFTER_MS) await store.touchPortalSession(session.id, address);
    },
    end: async (session) => void (await store.deletePortalSession(session.id)),
    endOthers: async (session) => (session.userId ? store.deleteUserSessions(session.userId, session.id) : 0),
    async setNotice(session, notice) {
      await store.setPortalSessionFlash(session.id, notice);
      session.hasNotice = true;
    },
    async takeNotice(session) {
      if (!session.hasNotice) return undefined;
      session.hasNotice = false;
      return (await store.takePortalSessionFlash(session.id)) ?? undefined;
    },
  };
}

function toSession(session: PortalSession): Session {
  return {
    id: session.id,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
    userId: session.userId,
    hasNotice: session.flash !== null,
    pending: session.pending,
    lastSeenAt: session.lastSeenAt,
  };
}
