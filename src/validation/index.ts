export type { ValidationRequest, ValidationResponse, ValidationRoute } from './types.ts';
export { createEmailRoute, type EmailRouteOptions, EMAIL_PATH } from './email/index.ts';
