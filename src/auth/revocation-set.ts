import type { RevocationSet, RevocationSetOptions } from './types.ts';

export function createRevocationSet(options: RevocationSetOptions = {}): RevocationSet {
  void options;
  throw new Error('createRevocationSet: not implemented yet');
}
