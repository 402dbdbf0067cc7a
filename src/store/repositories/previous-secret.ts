/**
 * The secret a client or an API key had before its last rotation, still accepted until
 * `validUntil` (epoch ms, exclusive) so that its callers can move to the new one without an
 * outage. Only the hash is stored, like the current secret's (migration 014).
 */
export interface PreviousSecret {
  readonly hash: string;
  readonly validUntil: number;
}
