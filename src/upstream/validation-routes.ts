import type { Logger } from '#common';
import {
  createAddressRoutes,
  createEmailRoute,
  createPhoneRoute,
  emailRouteOptionsFromEnv,
  type ValidationRoute,
} from '#validation';

export interface HostedRoutes {
  readonly routes: readonly ValidationRoute[];
  /** Swaps in a newly imported address data set (`tokengate admin address import`). */
  reloadAddresses(): Promise<void>;
  /** The address data set served now (its version and source), for the metrics. */
  dataset(): { readonly version: string; readonly source: string };
}

/** Every validation route the upstream hosts (address, phone, email), built once at start. */
export async function defaultValidationRoutes(options: { dataDir: string; log: Logger }): Promise<HostedRoutes> {
  const address = await createAddressRoutes({ dataDir: options.dataDir, log: options.log });
  return {
    routes: [...address.routes, createPhoneRoute(), createEmailRoute(emailRouteOptionsFromEnv(process.env))],
    reloadAddresses: () => address.reload(),
    dataset: () => address.dataset(),
  };
}
