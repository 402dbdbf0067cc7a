import type { RevocationFeedClient, RevocationFeedClientOptions } from './types.ts';

export function createRevocationFeedClient(options: RevocationFeedClientOptions): RevocationFeedClient {
  void options;
  throw new Error('createRevocationFeedClient: not implemented yet');
}
