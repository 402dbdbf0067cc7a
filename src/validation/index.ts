export type { ValidationRequest, ValidationResponse, ValidationRoute } from './types.ts';
export {
  createEmailRoute,
  type EmailRouteOptions,
  EMAIL_PATH,
  emailEnvironment,
  emailRouteOptionsFromEnv,
} from './email/index.ts';
export { createPhoneRoute, PHONE_PATH } from './phone/index.ts';
export {
  type AddressRoutes,
  type AddressRoutesOptions,
  AUTOCOMPLETE_PATH,
  createAddressRoutes,
  type ImportProgress,
  type ImportSummary,
  importGnaf,
  METADATA_PATH,
  VERIFICATION_PATH,
} from './address/index.ts';
