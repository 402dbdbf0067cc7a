export type { ValidationRequest, ValidationResponse, ValidationRoute } from './types.ts';
export { createEmailRoute, type EmailRouteOptions, EMAIL_PATH, emailRouteOptionsFromEnv } from './email/index.ts';
export { createPhoneRoute, PHONE_PATH } from './phone/index.ts';
