import type { Scope } from '#common';
import type { PreviousSecret } from './previous-secret.ts';

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
  /** The secret before the last rotation while it is still accepted (or was: compare `validUntil` with now). */
  previousSecret: PreviousSecret | null;
  /** The public keys a private_key_jwt client signs its assertions with (RFC 7523); null for a secret client. */
  jwks: ClientKeySet | null;
  /** Its token requests must carry a DPoP proof (RFC 9449), so all its tokens are key-bound. */
  requireDpop: boolean;
  /** It may ask the introspection endpoint about any token (RFC 7662); an operator grants it. */
  introspect: boolean;
  createdAt: number;
}

/** A JWK set holding public keys only (the admin input refuses private members). */
export interface ClientKeySet {
  keys: Array<Record<string, unknown>>;
}

/** Exactly one of `secretHash` and `jwks` (the table's check refuses both and neither). */
export interface NewClient {
  projectId: string;
  name: string;
  scopes: Scope[];
  secretHash?: string | undefined;
  jwks?: ClientKeySet | undefined;
  /** Refuse its token requests without a DPoP proof; default false. */
  requireDpop?: boolean | undefined;
  /** May call the introspection endpoint; default false. */
  introspect?: boolean | undefined;
}

/** The OAuth clients of the projects. A change is announced to every replica (onChange, kind `client`). */
export interface ClientStore {
  /** Exactly one of `secretHash` (a secret client) and `jwks` (a private_key_jwt client). */
  createClient(input: NewClient): Promise<OAuthClient>;
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
  /** Grants or withdraws the introspection permission; null for an unknown client. */
  setClientIntrospect(clientId: string, allowed: boolean): Promise<OAuthClient | null>;
}
