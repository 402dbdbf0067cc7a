import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { makeSelfSignedCert } from '#test/self-signed-cert.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-tls-'));
const cert = join(dir, '127.0.0.1.cert.pem');
const key = join(dir, '127.0.0.1.key.pem');

let h: Harness;
beforeAll(async () => {
  makeSelfSignedCert(dir);
  h = await startHarness(import.meta.dirname, { env: { TLS_CERT: cert, TLS_KEY: key } });
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `target` is sent as the request target as it is (origin or absolute form). */
function get(target: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(h.gateway.url);
    const req = request({ hostname, port, path: target, headers, ca: readFileSync(cert), agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the TLS listener', () => {
  it('serves HTTPS when tls.cert and tls.key are configured', () => {
    expect(h.gateway.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('verifies and forwards over HTTPS, telling the upstream the client used https', async () => {
    const res = await get('/api/phone/v1/verification', {
      authorization: bearer(await h.kit.tokenWithScopes(['phone'])),
    });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { headers: Record<string, string> }).headers['x-forwarded-proto']).toBe('https');
  });

  it('answers auth failures in the documented JSON shape over HTTPS', async () => {
    const res = await get('/api/phone/v1/verification', {});
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error_code: '1040', success: false });
  });

  it('accepts an absolute-form https target over TLS, forwarding its authority as Host', async () => {
    const res = await get('https://api.example/api/phone/v1/verification', {
      authorization: bearer(await h.kit.tokenWithScopes(['phone'])),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body) as { url: string; headers: Record<string, string> }).toMatchObject({
      url: '/api/phone/v1/verification',
      headers: { host: 'api.example' },
    });
  });
});
