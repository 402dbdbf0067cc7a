import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ValidationRoute } from '#validation';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

/**
 * Faults injected into request authentication of a real upstream, standing for a bug that
 * throws while one validation request is handled: the upstream must answer it 500 1099 in the
 * route's body shape and go on serving (an escaped rejection would fail the run as unhandled).
 */
const faults = vi.hoisted(() => ({ mode: undefined as 'throw' | 'reject-unloggable' | undefined }));

vi.mock(import('../../src/upstream/api-auth/authenticator.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    createApiAuthenticator(...args: Parameters<typeof original.createApiAuthenticator>) {
      const real = original.createApiAuthenticator(...args);
      return {
        authenticate(...call: Parameters<typeof real.authenticate>) {
          if (faults.mode === 'throw') throw new TypeError('Cannot convert object to primitive value');
          if (faults.mode === 'reject-unloggable') {
            // A value the logger's error serializer cannot read either.
            const unloggable = Object.defineProperty({}, 'message', {
              get() {
                throw new Error('not readable');
              },
            });
            return Promise.reject(unloggable);
          }
          return real.authenticate(...call);
        },
      };
    },
  };
});

const route: ValidationRoute = {
  path: '/api/test/autocomplete',
  scope: 'address',
  errorExtra: { completions: [] },
  handle: () => ({ status: 200, body: { completions: ['a'], success: true } }),
};

let t: TestUpstream;
beforeAll(async () => {
  t = await startTestUpstream({ routes: [route] });
});
afterAll(() => t?.destroy());
beforeEach(() => {
  faults.mode = undefined;
});

function call(requestId: string): Promise<Response> {
  return fetch(`${t.upstream.url}${route.path}?q=1`, {
    headers: { authorization: 'Bearer eyJhbGciOnsidG9TdHJpbmciOjB9fQ.e30.AA', 'x-request-id': requestId },
    signal: AbortSignal.timeout(5_000),
  });
}

describe('the last resort of the upstream validation routes', () => {
  it.each(['throw', 'reject-unloggable'] as const)(
    'answers 500 1099 in the route body shape when authentication fails with %s, and goes on serving',
    async (mode) => {
      faults.mode = mode;
      const res = await call(`upstream-${mode}`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        completions: [],
        message: 'Internal error',
        error_code: '1099',
        success: false,
      });
      expect(res.headers.get('x-request-id')).toBe(`upstream-${mode}`);
      expect(t.logs()).toContain('request failed');
      faults.mode = undefined;
      const next = await call('upstream-after');
      expect(next.status).toBe(401);
      expect(await next.json()).toEqual({
        completions: [],
        message: 'Invalid bearer token',
        error_code: '1024',
        success: false,
      });
    },
  );
});
