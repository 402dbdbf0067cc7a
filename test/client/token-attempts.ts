import type { Clock } from '#common';

/**
 * The client's fetch for tests of its background refresh, which no caller waits for: it notes the
 * fake-clock time of each token request and lets the test wait until the client has dealt with
 * every answer, so the clock is moved only once the client has decided when to try again.
 */
export interface TokenAttempts {
  /** Give this to the client as its `fetch`. */
  readonly fetch: typeof fetch;
  /** Fake-clock time (ms) at which each token request was sent. */
  readonly sentAtMs: number[];
  /** Resolves once every token request sent so far has ended and the client has read its answer. */
  settled(): Promise<void>;
}

export function watchTokenAttempts(tokenUrl: string, clock: Clock): TokenAttempts {
  const pending: Array<Promise<unknown>> = [];
  const sentAtMs: number[] = [];
  const watched: typeof fetch = (input, init) => {
    if (String(input) !== tokenUrl) return fetch(input, init);
    sentAtMs.push(clock.now());
    const answer = buffered(fetch(input, init));
    pending.push(answer.catch(() => undefined));
    return answer;
  };
  return {
    fetch: watched,
    sentAtMs,
    async settled() {
      await Promise.all(pending);
      // The body is in memory, so the client reads it and updates its cache in promise jobs
      // alone; they have all run by the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** The answer with its body already read off the socket. */
async function buffered(response: Promise<Response>): Promise<Response> {
  const res = await response;
  return new Response(await res.arrayBuffer(), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}
