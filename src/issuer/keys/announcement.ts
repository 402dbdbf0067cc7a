/**
 * What the revocation feed tells gateways about the key set, beside the revocations: the kids this
 * replica publishes and a version that grows with each change. A gateway that lacks one of the kids
 * refetches the key set at once, past its unknown-kid cooldown, so a key reaches every gateway
 * within a second of the replica publishing it (an emergency rotation included).
 */
export interface KeyAnnouncement {
  readonly version: number;
  readonly kids: readonly string[];
}

export interface KeyAnnouncer {
  /** The key set as this replica serves it now. */
  announcement(): KeyAnnouncement;
  /** Called after the published key set changed (a rotation here, or a reload that saw one elsewhere). */
  onChange(listener: () => void): () => void;
}
