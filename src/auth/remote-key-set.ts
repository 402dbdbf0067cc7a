import type { RemoteKeySet, RemoteKeySetOptions } from './types.ts';

export function createRemoteKeySet(options: RemoteKeySetOptions): RemoteKeySet {
  void options;
  throw new Error('createRemoteKeySet: not implemented yet');
}
