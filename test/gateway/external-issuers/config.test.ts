import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#common';
import { checkConfig, loadGatewayConfig } from '#gateway';

const fixture = (name: string) => join(import.meta.dirname, 'config', name);

function problemsOf(name: string): readonly string[] {
  try {
    loadGatewayConfig(fixture(name), {});
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`${name} loaded without errors`);
}

describe('external issuers in gateway.yaml', () => {
  it('reads each issuer with its defaults, and leaves a route without issuers to tokengate alone', () => {
    const config = loadGatewayConfig(fixture('valid.yaml'), {});
    expect(config.externalIssuers[0]).toMatchObject({
      name: 'partner',
      issuer: 'https://idp.partner.example',
      discoveryUrl: 'https://idp.partner.example/.well-known/openid-configuration',
      algorithms: ['RS256', 'ES256'],
      clockToleranceSec: 5,
      maxTokenLifetimeSec: 86_400,
      tokenTypes: ['at+jwt', 'JWT'],
      claims: {
        scope: { claim: 'scp', format: 'list', separator: ' ', map: { 'validation.address': 'address' } },
        client: 'azp',
        project: 'tenant',
      },
    });
    expect(config.externalIssuers[1]).toMatchObject({
      tokenTypes: ['at+jwt'],
      claims: { scope: { claim: 'scope', format: 'string', separator: ' ' }, client: 'client_id' },
      keySet: { cooldownSec: 30 },
    });
    expect(config.routes.map((r) => r.issuers)).toEqual([undefined, ['tokengate', 'partner'], ['partner']]);
  });

  it('refuses a route naming an issuer the file does not declare, naming the ones it does', () => {
    expect(problemsOf('unknown-issuer.yaml')).toEqual([
      'routes[1].issuers[1]: unknown issuer "partnr": declare it in externalIssuers (known: tokengate, partner) (line 5)',
    ]);
  });

  it("refuses an external issuer that claims the gateway's own iss", () => {
    expect(problemsOf('own-iss.yaml')).toEqual([
      "externalIssuers[0].issuer: is the gateway's own issuer (https://tokengate.example): tokengate's tokens are " +
        'checked by the issuer section (line 3)',
    ]);
  });

  it('refuses the reserved name, a missing or doubled key set, a repeated name or iss, and issuers on a public route', () => {
    expect(problemsOf('inconsistent.yaml')).toEqual([
      `externalIssuers[0].name: "tokengate" names the gateway's own issuer (the issuer section) (line 2)`,
      'externalIssuers[1].jwksUrl: needs jwksUrl or discoveryUrl (line 3)',
      'externalIssuers[2].discoveryUrl: give jwksUrl or discoveryUrl, not both (line 7)',
      'externalIssuers[3].name: name "b" is declared twice (line 9)',
      'externalIssuers[3].issuer: two issuers with one `iss`: a token could not say whose keys check it (line 9)',
      'routes[0].issuers: issuers need auth: bearer (line 11)',
    ]);
  });

  it('refuses introspection without an endpoint, and a route sending opaque tokens to two issuers', () => {
    expect(problemsOf('introspection.yaml')).toEqual([
      'externalIssuers[0].introspection.url: needs introspection.url, or a discoveryUrl that advertises the endpoint (line 6)',
      'routes[0].issuers: accepts two issuers that introspect opaque tokens (a, b): an opaque token could not say ' +
        'whose it is (line 13)',
    ]);
  });

  it('makes check-config exit 2 with the message', () => {
    const result = checkConfig(fixture('unknown-issuer.yaml'), {});
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain('routes[1].issuers[1]: unknown issuer "partnr"');
    expect(checkConfig(fixture('valid.yaml'), {})).toMatchObject({ ok: true, exitCode: 0 });
  });
});
