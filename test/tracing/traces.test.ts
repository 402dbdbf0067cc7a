import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedSpan, startOtlpReceiver } from '#test/otlp-receiver.ts';
import { freePort, type Stack, startStack } from '#test/stack.ts';

type Json = Record<string, unknown>;

const SERVER = 2;
const CLIENT = 3;

/**
 * The gateway and the upstream as processes, exporting to a loopback OTLP/HTTP receiver: the
 * spans of one call must form one trace from the client's `traceparent` down to the store.
 */
describe('OpenTelemetry traces across the gateway and the upstream', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let stack: Stack;
  let spans: ReceivedSpan[];
  const tokenTrace = randomBytes(16).toString('hex');
  const callTrace = randomBytes(16).toString('hex');
  const deniedTrace = randomBytes(16).toString('hex');
  const clientSpan = randomBytes(8).toString('hex');
  const badToken = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0cmFjZSJ9.c2lnbmF0dXJlLXRyYWNl';
  let accessToken = '';
  let clientSecret = '';

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        UPSTREAM_METRICS_PORT: String(await freePort()),
      },
    });
    const project = await stack.adminJson<Json>(['project', 'create', '--name', 'traced', '--plan', 'business']);
    const client = await stack.adminJson<Json>([
      'client',
      'create',
      '--project',
      String(project['id']),
      '--name',
      'c',
      '--scopes',
      'phone',
    ]);
    clientSecret = String(client['client_secret']);
    const traceparent = (trace: string) => `00-${trace}-${clientSpan}-01`;
    const tokenRes = await fetch(`${stack.gatewayUrl}/oauth/token`, {
      method: 'POST',
      headers: { traceparent: traceparent(tokenTrace) },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: String(client['client_id']),
        client_secret: clientSecret,
      }),
    });
    accessToken = String(((await tokenRes.json()) as Json)['access_token']);
    const phone = `${stack.gatewayUrl}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`;
    const call = await fetch(phone, {
      headers: { authorization: `Bearer ${accessToken}`, traceparent: traceparent(callTrace) },
    });
    expect(call.status).toBe(200);
    await call.arrayBuffer();
    const denied = await fetch(phone, {
      headers: { authorization: `Bearer ${badToken}`, traceparent: traceparent(deniedTrace) },
    });
    expect(denied.status).toBe(401);
    await denied.arrayBuffer();
    // Stopping flushes what is left; the batch delay is 100 ms anyway.
    await stack.stop();
    spans = receiver.spans;
  }, 120_000);
  afterAll(async () => {
    await stack?.destroy();
    await receiver?.close();
  });

  const inTrace = (trace: string) => spans.filter((span) => span.traceId === trace);
  const one = (list: readonly ReceivedSpan[], name: string, service: string): ReceivedSpan => {
    const found = list.filter((span) => span.name === name && span.service === service);
    expect(
      found.map((s) => `${s.service} ${s.name}`),
      `${service} ${name}`,
    ).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };

  it('continues the client’s traceparent through the gateway into the upstream’s token issuance and store', () => {
    const trace = inTrace(tokenTrace);
    const gateway = one(trace, 'POST /oauth/token', 'tokengate-gateway');
    expect(gateway.parentSpanId).toBe(clientSpan);
    expect(gateway.kind).toBe(SERVER);
    const forward = one(trace, 'tokengate.forward', 'tokengate-gateway');
    expect(forward.parentSpanId).toBe(gateway.spanId);
    expect(forward.kind).toBe(CLIENT);
    const upstream = one(trace, 'POST /oauth/token', 'tokengate-upstream');
    expect(upstream.parentSpanId).toBe(forward.spanId);
    const token = one(trace, 'tokengate.token', 'tokengate-upstream');
    expect(token.parentSpanId).toBe(upstream.spanId);
    expect(token.attributes['tokengate.outcome']).toBe('issued');
    const store = trace.filter((span) => span.name.startsWith('tokengate.store '));
    expect(store.length).toBeGreaterThan(0);
    for (const span of store) {
      expect(span.parentSpanId).toBe(token.spanId);
      expect(span.attributes['db.query.text']).toMatch(/^\s*[A-Z]/);
    }
  });

  it('records the verification decision and the forward, and the upstream’s validation handler, in one trace', () => {
    const trace = inTrace(callTrace);
    const gateway = one(trace, 'GET /api/phone/v1/verification', 'tokengate-gateway');
    expect(gateway.parentSpanId).toBe(clientSpan);
    expect(gateway.attributes['http.response.status_code']).toBe(200);
    const verify = one(trace, 'tokengate.verify', 'tokengate-gateway');
    expect(verify.parentSpanId).toBe(gateway.spanId);
    expect(verify.attributes['tokengate.decision']).toBe('allowed');
    const forward = one(trace, 'tokengate.forward', 'tokengate-gateway');
    const upstream = one(trace, 'GET /api/phone/v1/verification', 'tokengate-upstream');
    expect(upstream.parentSpanId).toBe(forward.spanId);
    const handler = one(trace, 'tokengate.validation /api/phone/v1/verification', 'tokengate-upstream');
    expect(handler.parentSpanId).toBe(upstream.spanId);
  });

  it('records a refusal with its error code, without forwarding, and never a token or secret', () => {
    const trace = inTrace(deniedTrace);
    const verify = one(trace, 'tokengate.verify', 'tokengate-gateway');
    expect(verify.attributes['tokengate.decision']).toBe('denied');
    expect(verify.attributes['tokengate.error_code']).toBe('1024');
    expect(trace.filter((span) => span.name === 'tokengate.forward')).toEqual([]);
    expect(trace.filter((span) => span.service === 'tokengate-upstream')).toEqual([]);
    for (const body of receiver.bodies) {
      expect(body).not.toContain(badToken);
      expect(body).not.toContain(accessToken);
      expect(body).not.toContain(clientSecret);
    }
  });
});
