import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertPair, makeSelfSignedCert } from '#test/self-signed-cert.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-tls-reload-'));
/** The files the gateway is configured with, overwritten in place as an ACME client renews them. */
const cert = join(dir, 'cert.pem');
const key = join(dir, 'key.pem');

function install(pair: CertPair): void {
  copyFileSync(pair.cert, cert);
  copyFileSync(pair.key, key);
}

/** The common name of the certificate a new TLS connection to the gateway is served. */
function servedName(h: Harness): Promise<string> {
  const { hostname, port } = new URL(h.gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const name = socket.getPeerCertificate().subject?.CN;
      socket.end();
      resolve(String(name));
    });
    socket.on('error', reject);
  });
}

let first: { cert: string; key: string };
let renewed: { cert: string; key: string };
let other: { cert: string; key: string };
let h: Harness;
beforeAll(async () => {
  [first, renewed, other] = [
    makeSelfSignedCert(dir, 'first'),
    makeSelfSignedCert(dir, 'renewed'),
    makeSelfSignedCert(dir, 'other'),
  ];
  install(first);
  h = await startHarness(import.meta.dirname, { env: { TLS_CERT: cert, TLS_KEY: key } });
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a reload of a TLS gateway', () => {
  it('serves a certificate renewed in place (same paths) from the next connection, without a restart warning', async () => {
    // Regression: the files were read only at start, so a renewed certificate was never served and the old one expired.
    expect(await servedName(h)).toBe('first');
    install(renewed);
    expect(await h.gateway.reload()).toEqual({ ok: true, problems: [] });
    expect(await servedName(h)).toBe('renewed');
    expect(
      h.logs.entries().some((e) => e['msg'] === 'config reload: these sections take effect only after a restart'),
    ).toBe(false);
  });

  it('keeps the running certificate and says why when the new key does not match the new certificate', async () => {
    copyFileSync(other.cert, cert);
    const result = await h.gateway.reload();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.stringMatching(/^tls: .*key values mismatch/)]);
    expect(await servedName(h)).toBe('renewed');
  });

  it('keeps the running certificate when a file cannot be read or is not PEM', async () => {
    writeFileSync(cert, 'not a certificate');
    const garbage = await h.gateway.reload();
    expect(garbage.ok).toBe(false);
    expect(garbage.problems).toEqual([expect.stringMatching(/^tls: /)]);
    rmSync(key);
    const missing = await h.gateway.reload();
    expect(missing.problems).toEqual([
      expect.stringContaining(`tls: ENOENT: no such file or directory, open '${key}'`),
    ]);
    expect(await servedName(h)).toBe('renewed');
    install(first);
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(await servedName(h)).toBe('first');
    expect(readFileSync(cert, 'utf8')).toBe(readFileSync(first.cert, 'utf8'));
  });
});

describe('the restart warning of a reload', () => {
  it('compares with what runs: TLS turned off and then on again is not pending, a change kept is named on every reload', async () => {
    // Regression: it compared with the last file reloaded, so turning TLS back on asked for a restart the HTTPS listener did not need.
    const file = join(dir, 'gateway.yaml');
    const withTls = (await readFile(join(import.meta.dirname, 'gateway.yaml'), 'utf8'))
      .replaceAll('$' + '{TLS_CERT}', cert)
      .replaceAll('$' + '{TLS_KEY}', key);
    const withoutTls = withTls.replace(/^tls:\n(?: {2}.*\n)+/m, '');
    expect(withoutTls).not.toContain('tls:');
    install(first);
    await writeFile(file, withTls);
    const g = await startHarness(import.meta.dirname, { file, watch: false });
    try {
      const warnings = () =>
        g.logs
          .entries()
          .filter((e) => e['msg'] === 'config reload: these sections take effect only after a restart')
          .map((e) => e['sections']);
      await writeFile(file, withoutTls);
      expect((await g.gateway.reload()).ok).toBe(true);
      expect((await g.gateway.reload()).ok).toBe(true);
      expect(warnings()).toEqual([['tls (on or off)'], ['tls (on or off)']]);
      await writeFile(file, withTls);
      expect((await g.gateway.reload()).ok).toBe(true);
      expect(warnings()).toHaveLength(2);
      expect(await servedName(g)).toBe('first');
    } finally {
      await g.close();
    }
  });
});
