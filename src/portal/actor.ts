import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Actor } from '#admin';
import { remoteAddress } from '#common';
import type { Session } from './auth/sessions.ts';

/**
 * The person behind a portal request, as the admin service logs them. The session is named by a
 * label derived from its id, never by the id: that is the cookie, a credential.
 */
export function portalActor(session: Session, req: IncomingMessage): Actor {
  return { kind: 'portal', session: sessionLabel(session.id), address: remoteAddress(req) };
}

/** 64 bits of a domain-separated SHA-256 of the id: tells one session's actions from another's, and gives nothing back. */
export function sessionLabel(id: string): string {
  return createHash('sha256').update(`tokengate portal session label\0${id}`).digest('base64url').slice(0, 11);
}
