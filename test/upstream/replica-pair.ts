import type { UpstreamOptions } from '#upstream';
import { temporaryDatabase } from '../e2e/support.ts';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

export interface ReplicaPair {
  readonly first: TestUpstream;
  readonly second: TestUpstream;
  /** Stops both replicas and drops their database. */
  close(): Promise<void>;
}

/**
 * Two upstream replicas on a new PostgreSQL database under `baseUrl` (TEST_DATABASE_URL), started
 * one after the other: the first creates the schema and the signing keys the second reads.
 */
export async function startReplicaPair(
  baseUrl: string,
  options: UpstreamOptions & { env?: Record<string, string> } = {},
): Promise<ReplicaPair> {
  const db = await temporaryDatabase(baseUrl);
  const env = { ...options.env, DATABASE_URL: db.url };
  const first = await startTestUpstream({ ...options, env });
  const second = await startTestUpstream({ ...options, env });
  return {
    first,
    second,
    async close() {
      await second.destroy();
      await first.destroy();
      await db.drop();
    },
  };
}
