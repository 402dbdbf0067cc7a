import { createLogger } from '#common';
import type { ValidationResponse, ValidationRoute } from '#validation';
import { type AddressInput, emptyInput } from '../../../src/validation/address/dataset/address-input.ts';
import { type AddressDataset, datasetFromTable } from '../../../src/validation/address/dataset/load.ts';
import { TableBuilder } from '../../../src/validation/address/dataset/table-builder.ts';
import type { StateCode } from '../../../src/validation/address/data/vocabulary.ts';
import { autocompleteRoute } from '../../../src/validation/address/http/autocomplete.ts';
import { metadataRoute } from '../../../src/validation/address/http/metadata.ts';
import { verificationRoute } from '../../../src/validation/address/http/verification.ts';

export const silentLog = createLogger({ level: 'silent' });

let pid = 100;

/** "14 Smith Street" style builder: street parts plus overrides. */
export function address(
  street: string,
  locality: string,
  state: StateCode,
  postcode: string,
  patch: Partial<AddressInput> = {},
): AddressInput {
  const words = street.split(' ');
  const type = words.pop() ?? null;
  return {
    ...emptyInput(locality, state, postcode),
    gnafPid: `GA${state.padEnd(3, '_')}${900_000_000 + pid++}`,
    streetName: words.join(' '),
    streetType: type,
    latitude: -33.8,
    longitude: 151.1,
    ...patch,
  };
}

/** A small hand-made data set whose right answers are known, for search-quality tests. */
export function knownAddresses(): AddressInput[] {
  const ryde = ['RYDE', 'NSW', '2112'] as const;
  const neville = address('Neville Street', ...ryde, {
    numberFirst: '11',
    numberLast: '15',
    gnafPid: 'GANSW716000001',
  });
  return [
    address('Smith Street', ...ryde, { numberFirst: '14' }),
    address('Smith Street', ...ryde, { numberFirst: '14', flatType: 'Unit', flat: '1' }),
    address('Smith Street', ...ryde, { numberFirst: '14', flatType: 'Unit', flat: '2' }),
    address('Smith Street', ...ryde, { numberFirst: '16' }),
    address('Smith Street', ...ryde, { numberFirst: '140' }),
    address('Smith Street', 'NORTH RYDE', 'NSW', '2113', { numberFirst: '14' }),
    address('Smith Road', ...ryde, { numberFirst: '14' }),
    address('Smithfield Road', ...ryde, { numberFirst: '3' }),
    neville,
    address('Neville Street', ...ryde, { numberFirst: '13', aliasOfPid: 'GANSW716000001' }),
    address('Atchison Street', 'ST LEONARDS', 'NSW', '2065', { numberFirst: '25', levelType: 'Level', level: '3' }),
    address('Atchison Street', 'ST LEONARDS', 'NSW', '2065', { numberFirst: '25', levelType: 'Level', level: '4' }),
    address('Victoria Street', 'ST KILDA', 'VIC', '3182', { numberFirst: '5' }),
    address('George Street', 'PARRAMATTA', 'NSW', '2150', { numberFirst: '8' }),
    address('George Street', 'BRISBANE CITY', 'QLD', '4000', { numberFirst: '8' }),
    address('Kent Road', 'DAPTO', 'NSW', '2530', { numberFirst: '21' }),
    address('Kent Road', 'DAPTO', 'NSW', '2530', { numberFirst: '21', flatType: 'Unit', flat: '2' }),
    address('Kent Road', 'DAPTO', 'NSW', '2530', { lot: '12' }),
    address('Katoomba Street', 'KATOOMBA', 'NSW', '2780', { numberFirst: '7' }),
    address('Mount Street', 'MOUNT DRUITT', 'NSW', '2770', { numberFirst: '3' }),
    { ...emptyInput('RYDE', 'NSW', '2112'), boxType: 'PO Box', boxNumber: '12' },
    { ...emptyInput('SYDNEY', 'NSW', '2001'), boxType: 'GPO Box', boxNumber: '1500' },
  ];
}

export function datasetOf(inputs: readonly AddressInput[], version = 'test-1'): AddressDataset {
  const builder = new TableBuilder();
  for (const input of inputs) builder.add(input);
  return datasetFromTable(builder.build(), version, 'sample');
}

export interface AddressApi {
  readonly dataset: AddressDataset;
  autocomplete(params: Record<string, string>): Promise<ValidationResponse>;
  verification(params: Record<string, string>): Promise<ValidationResponse>;
  metadata(params: Record<string, string>): Promise<ValidationResponse>;
}

/** The three routes over a data set, called the way the upstream calls them. */
export function addressApi(dataset: AddressDataset): AddressApi {
  const call =
    (route: ValidationRoute) =>
    async (params: Record<string, string>): Promise<ValidationResponse> =>
      route.handle({ query: new URLSearchParams(params), projectId: 'project-1', log: silentLog });
  return {
    dataset,
    autocomplete: call(autocompleteRoute(() => dataset)),
    verification: call(verificationRoute(() => dataset)),
    metadata: call(metadataRoute(() => dataset)),
  };
}

export interface Completion {
  full_address: string;
  id: string;
  canonical_address_id: string;
  highlighted_full_address?: string;
}

export function completionsOf(response: { readonly body: unknown }): Completion[] {
  return (response.body as { completions: Completion[] }).completions;
}
