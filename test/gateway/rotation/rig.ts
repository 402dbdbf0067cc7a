import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import { bearer } from '#test/tokens.ts';
import { decodeJwt, FEED_TOKEN, type Harness, postForm, startHarness } from '../../issuer/harness.ts';
import { type EchoUpstream, startEchoUpstream } from '../support/echo-upstream.ts';
import { createLogSink } from '../support/log-sink.ts';

const ISSUER = 'https://tokengate.test';

/**
 * Two issuer replicas on one embedded store and two gateways with their real key-set cache and
 * feed client: gateway 1 fetches keys from and long-polls replica a, gateway 2 replica b. One fake
 * clock for all. Replicas reload their keys every 10 s (real time); tests that need replica b to see
 * a change made on a call `reload(b)` for that reload, as it would come within 10 s.
 */
export interface Rig {
  readonly clock: FakeClock;
  readonly a: Harness;
  readonly b: Harness;
  readonly gateways: readonly [RunningGateway, RunningGateway];
  /** A fresh token from this replica (the kid it signs with now). */
  token(replica: Harness): Promise<string>;
  /** Fresh tokens from both replicas, each presented to both gateways: every one must be accepted. */
  everyTokenAccepted(step: string): Promise<void>;
  /** A token with a kid no issuer ever published, presented to both gateways (refused). */
  junkKidAtBothGateways(): Promise<void>;
  /** The replica's periodic key reload, now. */
  reload(replica: Harness): Promise<void>;
  /** Key-set fetches the gateway completed so far (its metrics). */
  keySetFetches(gateway: RunningGateway): Promise<number>;
  close(): Promise<void>;
}

export async function startRig(): Promise<Rig> {
  const clock = createFakeClock(Date.now());
  const config = { issuer: ISSUER, audience: ISSUER };
  const a = await startHarness({ clock, config });
  const b = await startHarness({ clock, config, store: a.store });
  const { client, secret } = await a.client(['address']);
  const upstream: EchoUpstream = await startEchoUpstream();
  const gateways = [await gatewayOn(a, upstream, clock), await gatewayOn(b, upstream, clock)] as const;
  await Promise.all(gateways.map((g) => g.ready()));

  const token = async (replica: Harness) => {
    const res = await postForm(replica.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: secret,
    });
    expect(res.status).toBe(200);
    return String(res.json['access_token']);
  };
  const statusAt = async (gateway: RunningGateway, jwt: string) => {
    const res = await fetch(`${gateway.url}/api/any-token`, { headers: { authorization: bearer(jwt) } });
    await res.arrayBuffer();
    return res.status;
  };
  return {
    clock,
    a,
    b,
    gateways,
    token,
    async everyTokenAccepted(step) {
      const outcomes: string[] = [];
      for (const [name, replica] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const jwt = await token(replica);
        const kid = String(decodeJwt(jwt).header['kid']).slice(0, 8);
        for (const [i, gateway] of gateways.entries())
          outcomes.push(`${step}: replica ${name} (kid ${kid}) at gateway ${i + 1}: ${await statusAt(gateway, jwt)}`);
      }
      expect(outcomes.filter((line) => !line.endsWith(': 200'))).toEqual([]);
    },
    async junkKidAtBothGateways() {
      const [, payload, signature] = (await token(a)).split('.');
      const header = { alg: 'RS256', typ: 'at+jwt', kid: `junk-${randomUUID()}` };
      const junk = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}.${signature}`;
      for (const gateway of gateways) expect(await statusAt(gateway, junk)).toBe(401);
    },
    async reload(replica) {
      await replica.issuer.listKeys();
    },
    async keySetFetches(gateway) {
      const metrics = await (await fetch(gateway.metricsUrl)).text();
      return Number(/^tokengate_gateway_keyset_fetch_total\{outcome="ok"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
    },
    async close() {
      await Promise.all(gateways.map((g) => g.close()));
      await upstream.close();
      await b.close();
      await a.close();
    },
  };
}

async function gatewayOn(replica: Harness, upstream: EchoUpstream, clock: FakeClock): Promise<RunningGateway> {
  const env = {
    UPSTREAM_URL: upstream.url,
    ISSUER,
    JWKS_URL: `${replica.url}/.well-known/jwks.json`,
    FEED_URL: `${replica.url}/internal/revocations`,
    FEED_TOKEN,
  };
  const configFile = join(import.meta.dirname, 'gateway.yaml');
  return startGateway(loadGatewayConfig(configFile, env), {
    log: createLogSink().log,
    clock,
    configFile,
    env,
    watch: false,
  });
}
