/**
 * A title for a test or group that runs only against PostgreSQL (TEST_DATABASE_URL): it says the
 * test is skipped, and why, only when it is, so a run's output never calls a test that ran skipped.
 */
export function postgresTitle(title: string): string {
  return process.env['TEST_DATABASE_URL'] ? title : `${title} (skipped: TEST_DATABASE_URL is not set)`;
}
