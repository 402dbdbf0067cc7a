import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Actor } from '#admin';
import { remoteAddress } from '#common';
import type { Session } from './auth/sessions.ts';
import type { Person } from './routing.ts';

/**
 * Who is behind a portal request, as the admin service checks and logs them: the signed-in person
 * with their roles, or the operator in the console. The session is named by a
 * label derived from its id, never by the id: that is the cookie, a credential.
 */
export function portalActor(session: Session, person: Person | undefined, req: IncomingMessage): Actor {
  const common = { session: sessionLabel(session.id), address: remoteAddress(req) };
  if (!person) return { kind: 'console', ...common };
  return { kind: 'person', userId: person.id, email: person.email, roles: person.roles, ...common };
}

/** 64 bits of a domain-separated SHA-256 of the id: tells one session's actions from another's, and gives nothing back. */
export function sessionLabel(id: string): string {
  return createHash('sha256').update(`tokengate portal session label\0${id}`).digest('base64url').slice(0, 11);
}
