import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_JSON_MAX_LENGTH,
  readAuthenticationJson,
  readRegistrationJson,
} from '../../src/admin/people/passkey-json.ts';

const b64 = fc
  .base64String({ minLength: 24, maxLength: 200 })
  .map((s) => s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_') || 'AAAA');
const id = fc.uint8Array({ minLength: 16, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64url'));

const assertion = fc.record({
  id,
  rawId: id,
  type: fc.constant('public-key'),
  clientExtensionResults: fc.constant({}),
  response: fc.record(
    { clientDataJSON: b64, authenticatorData: b64, signature: b64, userHandle: b64 },
    { requiredKeys: ['clientDataJSON', 'authenticatorData', 'signature'] },
  ),
});

describe('reading the browser’s passkey answer (untrusted JSON)', () => {
  it('never throws, whatever the text, and reads nothing from text that is not an answer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.json({ maxDepth: 4 })), (text) => {
        expect(readAuthenticationJson(text)).toBeNull();
        expect(readRegistrationJson(text)).toBeNull();
      }),
    );
  });

  it('reads a well-formed assertion into exactly the fields the check uses, extra fields dropped', () => {
    fc.assert(
      fc.property(assertion, fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()), (answer, extra) => {
        const read = readAuthenticationJson(JSON.stringify({ ...extra, ...answer, response: { ...answer.response } }));
        expect(read).toEqual(answer);
        expect(readRegistrationJson(JSON.stringify(answer))).toBeNull();
      }),
    );
  });

  it('refuses any field of an assertion changed to another type, or bytes not in base64url', () => {
    fc.assert(
      fc.property(
        assertion,
        fc.constantFrom('id', 'rawId', 'type', 'response'),
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant('not base64url!'), fc.constant([])),
        (answer, field, value) => {
          expect(readAuthenticationJson(JSON.stringify({ ...answer, [field]: value }))).toBeNull();
        },
      ),
    );
  });

  it(`refuses text longer than ${CREDENTIAL_JSON_MAX_LENGTH} characters before parsing it`, () => {
    const answer = fc.sample(assertion, 1)[0];
    const padded = JSON.stringify(answer).replace('{', `{"pad":"${'x'.repeat(CREDENTIAL_JSON_MAX_LENGTH)}",`);
    expect(readAuthenticationJson(padded)).toBeNull();
    expect(readAuthenticationJson(JSON.stringify(answer))).not.toBeNull();
  });
});
