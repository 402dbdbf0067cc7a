import { temporaryDatabase } from '../e2e/support.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

/** Two upstream replicas (no validation routes) on one temporary PostgreSQL database, and their cleanup. */
export async function startReplicaPair(
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<{ a: TestUpstream; b: TestUpstream; close(): Promise<void> }> {
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const db = await temporaryDatabase(baseUrl);
    cleanups.push(db.drop);
    const a = await startTestUpstream({ routes: [], env: { ...env, DATABASE_URL: db.url } });
    cleanups.push(() => a.destroy());
    const b = await startTestUpstream({ routes: [], env: { ...env, DATABASE_URL: db.url } });
    cleanups.push(() => b.destroy());
    return { a, b, close };
  } catch (error) {
    await close();
    throw error;
  }
}
