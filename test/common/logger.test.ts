import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('logger redaction', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjbGkifQ.c2lnbmF0dXJl';
  const secret = 'dGhpcy1pcy1hLXZlcnktc2VjcmV0LXZhbHVlLTEyMzQ1Njc4OTA';

  it('never writes a bearer token or a client secret, wherever they sit in the log object', () => {
    const out = sink();
    const log = createLogger({ level: 'info', destination: out.stream });
    log.info({ req: { headers: { authorization: `Bearer ${token}` } } }, 'request');
    log.info({ headers: { authorization: `Basic ${secret}` } }, 'headers');
    log.info({ body: { client_secret: secret, access_token: token } }, 'body');
    log.info({ client_secret: secret, token, secret }, 'top level');
    const text = out.text();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(token);
    expect(text).not.toContain(secret);
    expect(text.split('\n').filter(Boolean)).toHaveLength(4);
  });
});

describe('logger and database errors', () => {
  const privateKey = 'KzDIwZ5Fy2JnOQ8MURTur2I7yEVAVToH2YrfwSHywGo';
  const databaseError = () =>
    Object.assign(new Error('new row for relation "signing_keys" violates check constraint "c"'), {
      code: '23514',
      constraint: 'c',
      detail: `Failing row contains (kid, EdDSA, retired, {"crv":"Ed25519","d":"${privateKey.slice(0, 42)}...)`,
      where: `unnamed portal parameter $5 = '${privateKey}'`,
      internalQuery: `SELECT '${privateKey}'`,
    });

  it('drops the fields a database error quotes rows and parameters in, keeping its code and constraint', () => {
    const out = sink();
    const log = createLogger({ level: 'info', destination: out.stream });
    const error = databaseError();
    log.error({ err: error }, 'store write failed');
    log.error({ err: new AggregateError([databaseError()], 'both failed') }, 'aggregate');
    log.error(Object.assign(new Error('wrapper'), { inner: databaseError() }), 'nested');
    const text = out.text();
    expect(text).not.toContain(privateKey.slice(0, 16));
    expect(text).toContain('"code":"23514"');
    expect(text).toContain('"constraint":"c"');
    expect(error.detail).toContain(privateKey.slice(0, 16));
  });
});

describe('logger and thrown values that are not errors', () => {
  it('logs a cyclic non-error value instead of throwing, and leaves a thrown object as it was while dropping its detail from the line', () => {
    const out = sink();
    const log = createLogger({ level: 'info', destination: out.stream });
    const cyclic: Record<string, unknown> = { code: 'X', nested: {} };
    (cyclic.nested as Record<string, unknown>).back = cyclic;
    expect(() => log.error({ err: cyclic }, 'cyclic')).not.toThrow();
    const thrown = { code: '23514', detail: 'Failing row contains (row-data-0123456789)' };
    log.error({ err: thrown }, 'plain');
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"code":"X"');
    expect(lines[1]).toContain('"code":"23514"');
    expect(lines[1]).not.toContain('row-data-0123456789');
    expect(thrown.detail).toContain('row-data-0123456789');
  });
});
