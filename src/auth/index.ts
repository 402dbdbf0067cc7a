/**
 * The verification plugin's public surface (explicit named exports, jose style). Hosts call
 * `createVerifier` with a `KeyResolver` and a `RevocationChecker`, then `authorize(header,
 * requirement)`, and turn a failure into HTTP with `authFailureResponse`.
 */
export type {
  RouteRequirement,
  VerifiedToken,
  AuthFailureKind,
  AuthFailure,
  AuthSuccess,
  AuthDecision,
  KeyResolver,
  RevocationChecker,
  VerifierOptions,
  Verifier,
  DpopOptions,
  DpopRequest,
  VerifierStats,
  AuthHttpResponse,
} from './types.ts';
export type { KeySetEvent, KeySetStatus, RemoteKeySetOptions, RemoteKeySet } from './key-set-types.ts';
export type {
  RevocationEntry,
  RevocationSetOptions,
  RevocationSetStatus,
  RevocationSet,
  RevocationFeedEvent,
  RevocationFeedClientOptions,
  KeySetAnnouncement,
  RevocationFeedClient,
} from './revocation-types.ts';
export { createVerifier } from './verifier.ts';
export { VERIFIER_DEFAULTS } from './verifier-options.ts';
export { authorizeAsync } from './authorize-async.ts';
export { createRemoteKeySet } from './remote-key-set.ts';
export { KEY_SET_DEFAULTS } from './remote-key-set-options.ts';
export { createRevocationSet, REVOCATION_SET_DEFAULTS } from './revocation-set.ts';
export { createRevocationFeedClient } from './revocation-feed.ts';
export { authFailureResponse } from './response.ts';
export { extractBearer } from './extractor.ts';
export { CLIENT_GENERATION_CLAIM, PROJECT_ID_CLAIM, TOKEN_TYPE } from './claims.ts';
export { type ClientCutOff, cutOffCovers, mergeClientEntry } from './client-cut-off.ts';
export { SUPPORTED_ALGORITHMS, type SupportedAlgorithm } from './algorithms.ts';
export {
  accessTokenHash,
  DPOP_PROOF_TYPE,
  type ProofRequest,
  type ProofResult,
  type ProofRules,
  verifyProof as verifyDpopProof,
} from './dpop/proof.ts';
export {
  createDpopNonces,
  DPOP_NONCE_MODES,
  DPOP_NONCE_SLOT_SEC,
  type DpopNonceMode,
  type DpopNonceOptions,
  type DpopNonces,
} from './dpop/nonce.ts';
export { createMemoryReplayCache, type DpopReplayCache } from './dpop/replay-cache.ts';
export { createExternalVerifier } from './issuers/external-verifier.ts';
export type { ExternalIssuerOptions, ExternalVerifier } from './issuers/types.ts';
export type { ClaimMapping } from './issuers/claim-mapping.ts';
export { type Authorize, createIssuerDispatch, type IssuerDispatch } from './issuers/issuer-dispatch.ts';
export { discover, type IssuerMetadata } from './issuers/discovery.ts';
export { createIntrospector, type Introspector, type IntrospectionOptions } from './issuers/introspection.ts';
export type { IntrospectionUse } from './issuers/introspected.ts';
export { createRedisReplayCache } from './dpop/redis-replay-cache.ts';
