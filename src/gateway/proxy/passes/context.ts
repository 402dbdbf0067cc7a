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

/** A strip pass names the inbound headers that must not be passed on (true = drop `name`). */
export type StripPass = (name: string, inbound: IncomingHttpHeaders) => boolean;

/** A set pass adds headers to the outgoing copy. */
export type HeaderPass = (headers: IncomingHttpHeaders, ctx: ForwardContext) => void;
