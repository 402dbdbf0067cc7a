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
} from './types.ts';
