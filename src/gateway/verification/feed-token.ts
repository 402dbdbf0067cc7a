import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The revocation-feed credential: given inline (`token`, usually `${REVOCATION_FEED_TOKEN}`) or
 * as a file the local upstream writes on its first start (`$DATA_DIR/feed-token`). The file may
 * not exist yet when the gateway starts first, so it is polled until it appears.
 */
export async function resolveFeedToken(
  feed: { readonly token?: string | undefined; readonly tokenFile?: string | undefined },
  signal: AbortSignal,
  pollMs = 250,
): Promise<string> {
  if (feed.token) return feed.token;
  if (!feed.tokenFile) throw new TypeError('issuer.revocationFeed needs token or tokenFile');
  for (;;) {
    const token = await readFile(feed.tokenFile, 'utf8').then(
      (text) => text.trim(),
      () => '',
    );
    if (token) return token;
    await delay(pollMs, undefined, { signal });
  }
}
