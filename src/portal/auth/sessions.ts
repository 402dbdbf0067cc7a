import { randomBytes } from 'node:crypto';
import type { Clock } from '#common';

export const SESSION_COOKIE = 'tokengate_portal';
export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** Bounds memory: signing in is rate-limited, but a leaked admin token could still loop. */
const MAX_SESSIONS = 1000;

export interface Session {
  readonly id: string;
  /** Synchronizer token every state-changing form of this session carries. */
  readonly csrfToken: string;
  readonly expiresAt: number;
  /** One-shot notice for the next page (never a secret). */
  flash: string | undefined;
}

/** 256 random bits, base64url: the session id and the CSRF token. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Server-side sessions in memory: a restart signs everyone out, which is acceptable here. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #clock: Clock;
  readonly ttlMs: number;
  constructor(clock: Clock, ttlMs: number) {
    this.#clock = clock;
    this.ttlMs = ttlMs;
  }

  create(): Session {
    this.#prune();
    if (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest !== undefined) this.#sessions.delete(oldest);
    }
    const session: Session = { id: randomToken(), csrfToken: randomToken(), expiresAt: this.#clock.now() + this.ttlMs, flash: undefined };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session for an id, or undefined (unknown, malformed or expired). */
  get(id: string | undefined): Session | undefined {
    if (!id || id.length > 64) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.#clock.now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  #prune(): void {
    const now = this.#clock.now();
    for (const [id, session] of this.#sessions) if (session.expiresAt <= now) this.#sessions.delete(id);
  }
}
