import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { until } from '#test/until.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { type OidcIssuer, RESOURCE, startOidcIssuer } from './oidc-issuer.ts';

/**
 * One gateway, two issuers: tokengate's own (the harness's key set and revocation feed) and an
 * independent one, node-oidc-provider, found through its OpenID Connect discovery document and
 * issuing RFC 9068 JWT access tokens for the client-credentials grant with resource indicators.
 */
let oidc: OidcIssuer;
let h: Harness;

beforeAll(async () => {
  oidc = await startOidcIssuer();
  h = await startHarness(import.meta.dirname, {
    env: { PARTNER_ISSUER: oidc.issuer, PARTNER_INTROSPECTION_SECRET: oidc.gatewayClient.secret },
  });
  // Readiness never waits for an external issuer: wait until its keys have loaded.
  const probe = await oidc.token(RESOURCE, 'address');
  await until(
    async () => (await h.fetch('/api/partner', { headers: { authorization: bearer(probe) } })).status === 200,
    "the partner issuer's keys are loaded",
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
  await oidc?.close();
});

const call = (path: string, token: string) => h.fetch(path, { headers: { authorization: bearer(token) } });

describe("an external issuer's JWT access tokens beside tokengate's own", () => {
  it('forwards a token of the external issuer on a route that accepts both, saying whose it is', async () => {
    const token = await oidc.token(RESOURCE, 'address');
    const res = await call('/api/both', token);
    expect(res.status).toBe(200);
    const seen = h.upstream.seen.at(-1);
    expect(seen?.headers['x-tokengate-identity']).toMatch(
      /^client_id="partner-app", project_id="partner", scope="address", jti="[^"]+", issuer="partner"$/,
    );
  });

  it("forwards tokengate's own token on that route, with no issuer in its identity", async () => {
    const res = await call('/api/both', await h.kit.goodToken());
    expect(res.status).toBe(200);
    expect(h.upstream.seen.at(-1)?.headers['x-tokengate-identity']).not.toMatch(/issuer=/);
  });

  it("refuses the external token on a route of tokengate's own issuer alone, with 401 1024", async () => {
    const res = await call('/api/own', await oidc.token(RESOURCE, 'address'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid bearer token', error_code: '1024', success: false });
  });

  it("refuses tokengate's token on a route of the external issuer alone, with 401 1024", async () => {
    const res = await call('/api/partner', await h.kit.goodToken());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1024' });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it("refuses the external token without the route's scope (1026), and one minted for another resource (1024)", async () => {
    const phoneOnly = await call('/api/both', await oidc.token(RESOURCE, 'phone'));
    expect(phoneOnly.status).toBe(401);
    expect(await phoneOnly.json()).toMatchObject({ error_code: '1026' });
    const elsewhere = await call('/api/both', await oidc.token('https://another-api.test', 'address'));
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.json()).toMatchObject({ error_code: '1024' });
  });

  it("still cuts tokengate's own token through the revocation feed within a second, on the shared route", async () => {
    const token = await h.kit.goodToken();
    expect((await call('/api/both', token)).status).toBe(200);
    const jti = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
    const revokedAt = performance.now();
    h.feed.revoke({ kind: 'jti', value: jti, issuedBefore: null, expiresAt: Math.floor(Date.now() / 1000) + 900 });
    await until(async () => (await call('/api/both', token)).status === 401, 'the revoked token is refused', {
      timeoutMs: 2_000,
    });
    expect(performance.now() - revokedAt).toBeLessThan(1_000);
    expect(await (await call('/api/both', token)).json()).toMatchObject({
      error_code: '1024',
      message: 'OAuth key has been revoked',
    });
  });

  it("forwards the issuer's opaque token as its introspection endpoint describes it, until it is revoked there", async () => {
    const opaque = await oidc.token(`${RESOURCE}/opaque`, 'address');
    expect(opaque).not.toContain('.');
    const res = await call('/api/both', opaque);
    expect(res.status).toBe(200);
    expect(h.upstream.seen.at(-1)?.headers['x-tokengate-identity']).toMatch(
      /^client_id="partner-app", project_id="partner", scope="address", jti="", issuer="partner"$/,
    );
    await oidc.revoke(opaque);
    // The active answer is kept for at most cacheMaxSec (1 s here), then the issuer says inactive.
    await until(async () => (await call('/api/both', opaque)).status === 401, 'the revoked opaque token is refused', {
      timeoutMs: 5_000,
    });
    expect(await (await call('/api/both', opaque)).json()).toMatchObject({ error_code: '1024' });
  });

  it("refuses an opaque token without the route's scope with 1026", async () => {
    const res = await call('/api/both', await oidc.token(`${RESOURCE}/opaque`, 'phone'));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1026' });
  });

  it('refuses an opaque token on a route of tokengate alone without asking anyone', async () => {
    const res = await call('/api/own', await oidc.token(`${RESOURCE}/opaque`, 'address'));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1024' });
  });

  it("spends the partner's unknown-kid budget, never tokengate's, on a partner token with an unknown kid", async () => {
    const ownFetches = h.jwks.requests;
    const strange = h.kit.rawToken(
      { alg: 'RS256', kid: 'not-a-partner-kid', typ: 'at+jwt' },
      { ...h.kit.claimsFor(), iss: oidc.issuer, aud: RESOURCE },
    );
    const res = await call('/api/both', strange);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1024' });
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toMatch(
      /tokengate_gateway_external_unknown_kid_total\{issuer="partner",refetched="(true|false)"\} 1/,
    );
    expect(h.jwks.requests).toBe(ownFetches);
  });

  it('labels the external key set in the metrics by the issuer name', async () => {
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toMatch(/tokengate_gateway_external_keyset_fetch_total\{issuer="partner",outcome="ok"\} [1-9]/);
  });
});
