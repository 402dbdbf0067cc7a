export { createApiAuthenticator } from './authenticator.ts';
export type {
  ApiAuthenticator,
  ApiAuthOptions,
  ApiAuthResult,
  ApiAuthAllowed,
  ApiAuthRefused,
  ApiAuthMethod,
} from './types.ts';
