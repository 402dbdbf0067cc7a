import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';

/**
 * The browser's answer to `navigator.credentials.create/get`, as the portal's script posts it in
 * a form field: untrusted JSON, read here into exactly the fields the verification uses (anything
 * else is dropped) with every string bounded, or null. The signatures are checked afterwards.
 */
export const CREDENTIAL_JSON_MAX_LENGTH = 12_000;

/** base64url without padding, as WebAuthn's JSON forms carry bytes. */
const bytes = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);
/** A credential id: at most 1023 bytes (WebAuthn Level 3), 1364 characters. */
const credentialId = bytes(1364).min(16);
const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

const common = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  clientExtensionResults: z.object({}).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

const registration = z.object({
  ...common,
  response: z.object({
    clientDataJSON: bytes(2000),
    attestationObject: bytes(8000),
    transports: z.array(z.enum(TRANSPORTS)).max(TRANSPORTS.length).optional(),
  }),
});

const authentication = z.object({
  ...common,
  response: z.object({
    clientDataJSON: bytes(2000),
    authenticatorData: bytes(2000),
    signature: bytes(1000),
    userHandle: bytes(100).optional(),
  }),
});

function parse<T>(schema: z.ZodType<T>, text: string): T | null {
  if (text.length > CREDENTIAL_JSON_MAX_LENGTH) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const read = schema.safeParse(value);
  return read.success && read.data !== null ? read.data : null;
}

export function readRegistrationJson(text: string): RegistrationResponseJSON | null {
  return parse(registration, text);
}

export function readAuthenticationJson(text: string): AuthenticationResponseJSON | null {
  return parse(authentication, text);
}
