import type { Logger } from '#common';
import { createEmailRoute, createPhoneRoute, emailRouteOptionsFromEnv, type ValidationRoute } from '#validation';

/** Every validation route the upstream hosts (address, phone, email), built once at start. */
export async function defaultValidationRoutes(_options: { dataDir: string; log: Logger }): Promise<ValidationRoute[]> {
  return [createPhoneRoute(), createEmailRoute(emailRouteOptionsFromEnv(process.env))];
}
