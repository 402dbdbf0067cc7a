/** Address validation (AU): autocomplete, verification, metadata, data set and G-NAF import. */
export { type AddressRoutes, type AddressRoutesOptions, createAddressRoutes } from './http/routes.ts';
export { AUTOCOMPLETE_PATH } from './http/autocomplete.ts';
export { VERIFICATION_PATH } from './http/verification.ts';
export { METADATA_PATH } from './http/metadata.ts';
export { type ImportOptions, type ImportProgress, type ImportSummary, importGnaf } from './gnaf/import.ts';
export { GnafFormatError } from './gnaf/psv.ts';
export { DEFAULT_SAMPLE, type SampleOptions } from './data/generate.ts';
export { type AddressDataset, loadAddressDataset, sampleDataset } from './dataset/load.ts';
