import type { PreviousSecret } from './repositories/previous-secret.ts';
import { toNumber } from './sql-runner.ts';

/** The two columns of migration 014 as one value: both set, or none (the table's check says so). */
export function previousSecret(hash: string | null, validUntil: unknown): PreviousSecret | null {
  if (hash === null || validUntil === null || validUntil === undefined) return null;
  return { hash, validUntil: toNumber(validUntil) };
}
