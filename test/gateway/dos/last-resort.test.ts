import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/**
 * Faults injected into the real request path of an in-process gateway, each standing for a bug
 * of the issue-17 class: something throws while one request is handled. The gateway must answer
 * that request 500 1099 and go on serving; here a fault that escaped would fail the run as an
 * unhandled error and leave the request unanswered.
 */
const faults = vi.hoisted(() => ({
  /** describeValue throws, as String() of a hostile alg did (synchronous path). */
  describe: false,
  /** verifySignature throws this (the batched check: a rejected promise). */
  signature: undefined as unknown,
  /** The identity header pass throws (after the asynchronous check succeeded). */
  identity: false,
}));

vi.mock(import('../../../src/auth/describe.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    describeValue(value: unknown, max: number): string {
      if (faults.describe) throw new TypeError('Cannot convert object to primitive value');
      return original.describeValue(value, max);
    },
  };
});

vi.mock(import('../../../src/auth/signature.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    verifySignature(...args: Parameters<typeof original.verifySignature>): boolean {
      if (faults.signature !== undefined) throw faults.signature;
      return original.verifySignature(...args);
    },
  };
});

vi.mock(import('../../../src/gateway/proxy/passes/identity.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    injectIdentity(...args: Parameters<typeof original.injectIdentity>): void {
      if (faults.identity) throw new RangeError('identity pass failed');
      original.injectIdentity(...args);
    },
  };
});

const PHONE = '/api/phone/v1/verification?phone_number=1&default_country_code=AU';
const AUTOCOMPLETE = '/api/au/address/autocomplete?q=1';
const ISSUE_17 = 'eyJhbGciOnsidG9TdHJpbmciOjB9fQ.e30.AA';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
});
afterAll(() => h.close());
beforeEach(() => {
  faults.describe = false;
  faults.signature = undefined;
  faults.identity = false;
});

async function call(path: string, token: string, requestId: string): Promise<Response> {
  return h.fetch(path, {
    headers: { authorization: bearer(token), 'x-request-id': requestId },
    signal: AbortSignal.timeout(5_000),
  });
}

/** A normal request after the fault: the same gateway still verifies and forwards. */
async function stillServing(): Promise<void> {
  const res = await call(PHONE, await h.kit.goodToken({ scopes: ['phone'] }), 'after-the-fault');
  expect(res.status).toBe(200);
  expect(res.headers.get('x-upstream')).toBe('echo');
}

function failureLines(requestId: string): Array<Record<string, unknown>> {
  return h.logs.entries().filter((l) => l['msg'] === 'request failed; answered 500' && l['reqId'] === requestId);
}

describe('the last resort of the gateway request path', () => {
  it('answers 500 1099 with the route fields and request id when the synchronous path throws, and goes on serving', async () => {
    faults.describe = true;
    const res = await call(AUTOCOMPLETE, ISSUE_17, 'sync-throw-1');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      completions: [],
      message: 'Internal error',
      error_code: '1099',
      success: false,
    });
    expect(res.headers.get('x-request-id')).toBe('sync-throw-1');
    expect(res.headers.get('connection')).toBe('close');
    expect(failureLines('sync-throw-1')).toEqual([
      expect.objectContaining({
        level: 50,
        route: '/api/au/address/autocomplete',
        error: expect.objectContaining({ type: 'TypeError', message: 'Cannot convert object to primitive value' }),
      }),
    ]);
    faults.describe = false;
    await stillServing();
  });

  it('answers 500 1099 when the asynchronous check rejects, and logs no part of the token the error quotes', async () => {
    const token = await h.kit.goodToken({ scopes: ['phone'] });
    const [header, payload] = token.split('.') as [string, string];
    faults.signature = new Error(`cannot verify ${header}.${payload.slice(0, 40)}`);
    const res = await call(PHONE, token, 'async-reject-1');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal error', error_code: '1099', success: false });
    expect(res.headers.get('x-request-id')).toBe('async-reject-1');
    const [line] = failureLines('async-reject-1');
    expect(line?.['error']).toMatchObject({ type: 'Error', message: 'cannot verify [redacted].[redacted]' });
    expect(h.logs.text()).not.toContain(header);
    expect(h.logs.text()).not.toContain(payload.slice(0, 40));
    faults.signature = undefined;
    await stillServing();
  });

  it('answers 500 1099 when the check rejects with a value that no String() survives', async () => {
    faults.signature = { toString: 0 };
    const res = await call(PHONE, await h.kit.goodToken({ scopes: ['phone'] }), 'async-reject-2');
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error_code: '1099' });
    expect(failureLines('async-reject-2')).toEqual([expect.objectContaining({ error: { type: 'object' } })]);
    faults.signature = undefined;
    await stillServing();
  });

  it('answers 500 1099 when deciding after a successful asynchronous check throws', async () => {
    faults.identity = true;
    // A token seen for the first time is verified in the batch: its decision comes as a promise.
    const res = await call(PHONE, await h.kit.goodToken({ scopes: ['phone'] }), 'after-async-1');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal error', error_code: '1099', success: false });
    expect(failureLines('after-async-1')).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ type: 'RangeError' }) }),
    ]);
    faults.identity = false;
    await stillServing();
  });

  it('writes the 500 in the access log with its error code', async () => {
    faults.describe = true;
    expect((await call(PHONE, ISSUE_17, 'access-line-1')).status).toBe(500);
    faults.describe = false;
    await vi.waitFor(() =>
      expect(h.logs.entries()).toContainEqual(
        expect.objectContaining({ msg: 'request', reqId: 'access-line-1', status: 500, errorCode: '1099' }),
      ),
    );
  });
});
