import type { Logger } from '#common';
import type { ValidationRoute } from '../../types.ts';
import type { SampleOptions } from '../data/generate.ts';
import { type AddressDataset, loadAddressDataset } from '../dataset/load.ts';
import { autocompleteRoute } from './autocomplete.ts';
import { metadataRoute } from './metadata.ts';
import { verificationRoute } from './verification.ts';

export interface AddressRoutesOptions {
  /** `$DATA_DIR`: an imported data set is read from `<dataDir>/address/`. */
  readonly dataDir: string;
  readonly log: Logger;
  /** Size and seed of the in-memory sample used when nothing was imported. */
  readonly sample?: SampleOptions;
}

export interface AddressRoutes {
  readonly routes: readonly ValidationRoute[];
  /** Re-reads `<dataDir>/address/` (after an import) and swaps the data set in. */
  reload(): Promise<void>;
  /** The data set served now: its version and where it came from (for the upstream's metrics). */
  dataset(): { readonly version: string; readonly source: string };
}

/** Loads the data set once and returns the three address routes that answer from it. */
export async function createAddressRoutes(options: AddressRoutesOptions): Promise<AddressRoutes> {
  let dataset: AddressDataset = await loadAddressDataset(options);
  const data = (): AddressDataset => dataset;
  return {
    routes: [autocompleteRoute(data), verificationRoute(data), metadataRoute(data)],
    async reload() {
      try {
        dataset = await loadAddressDataset(options);
      } catch (error) {
        options.log.error(
          { reason: (error as Error).message, version: dataset.version },
          'address data set refused: the previous data set stays live',
        );
        throw error;
      }
    },
    dataset: () => ({ version: dataset.version, source: dataset.source }),
  };
}
