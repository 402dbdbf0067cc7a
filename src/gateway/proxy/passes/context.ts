import type { IncomingHttpHeaders } from 'node:http';
import type { VerifiedToken } from '#auth';

/** What the header passes know about the request being forwarded. */
export interface ForwardContext {
  readonly requestId: string;
  /** The peer address as the socket sees it. */
  readonly remoteAddress: string;
  readonly encrypted: boolean;
  /** The verified token on bearer routes; undefined on `auth: none` and key/secret requests. */
  readonly token: VerifiedToken | undefined;
}

/** One step of header handling; mutates the outgoing header object in place. */
export type HeaderPass = (headers: IncomingHttpHeaders, ctx: ForwardContext) => void;
