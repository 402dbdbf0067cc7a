export { createPhoneRoute, PHONE_PATH } from './route.ts';
export { LINE_TYPES, type LineType } from './line-type.ts';
export { PHONE_NOT_VERIFIED, type PhoneNotVerifiedCode } from './not-verified.ts';
export type { PhoneVerification } from './verify.ts';
