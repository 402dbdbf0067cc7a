import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { exchange, readResponses } from './raw-http.ts';
import { type RecordingUpstream, startRecordingUpstream } from './recording-upstream.ts';

let recorder: RecordingUpstream;
let h: Harness;
beforeAll(async () => {
  recorder = await startRecordingUpstream();
  h = await startHarness(import.meta.dirname, { env: { UPSTREAM_URL: recorder.url } });
});
afterAll(async () => {
  await h?.close();
  await recorder?.close();
});

async function send(head: string, body = ''): Promise<ReturnType<typeof readResponses>> {
  const text = `${head}\r\n\r\n${body}`;
  const { received } = await exchange(Number(new URL(h.gateway.url).port), [Buffer.from(text)]);
  return readResponses(received);
}

describe('request framing the gateway checks itself', () => {
  // Found by raw-requests.test.ts: with Upgrade, Node's parser stops at the head and leaves the
  // Transfer-Encoding unchecked, and the value went upstream as sent.
  it.each(['identity', 'gzip', 'xchunked'])(
    'regression: refuses 400 an upgrade request whose Transfer-Encoding is "%s" (not ending in chunked) and forwards nothing',
    async (coding) => {
      const before = recorder.requests.length;
      const token = await h.kit.tokenWithScopes(['phone']);
      const { responses, problem } = await send(
        `GET /api/phone/v1/verification HTTP/1.1\r\nHost: gw.test\r\nAuthorization: ${bearer(token)}\r\nConnection: upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: ${coding}`,
        'hello',
      );
      expect(problem).toBeUndefined();
      expect(responses.map((r) => r.status)).toEqual([400]);
      expect(JSON.parse(responses[0]?.body ?? '')).toEqual({
        message: 'Invalid Transfer-Encoding',
        error_code: '1000',
        success: false,
      });
      expect(recorder.requests.length).toBe(before);
      expect(recorder.parseErrors).toEqual([]);
    },
  );

  it('forwards an upgrade request with a chunked body as a plain request, upgrade headers removed', async () => {
    const before = recorder.requests.length;
    const { responses } = await send(
      'POST /public/echo HTTP/1.1\r\nHost: gw.test\r\nConnection: upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: gzip, chunked',
      '5\r\nhello\r\n0\r\n\r\n',
    );
    expect(responses.map((r) => r.status)).toEqual([200]);
    const [forwarded] = recorder.requests.slice(before);
    expect(forwarded).toMatchObject({ method: 'POST', bodyBytes: 5, complete: true });
    expect(forwarded?.headers['transfer-encoding']).toBe('gzip, chunked');
    expect(forwarded?.headers.upgrade).toBeUndefined();
  });
});
