import { type AddressDataset, datasetFromTable } from '../dataset/load.ts';
import { TableBuilder } from '../dataset/table-builder.ts';
import { DEFAULT_NATIONAL, generateNational, type NationalOptions } from './national.ts';

/**
 * A national-shape data set built in memory, ready to search: what the benches measure at
 * 1 M and at full size (15.6 M addresses, about 40 s and 1 GB of typed arrays).
 */
export function nationalDataset(options: NationalOptions = DEFAULT_NATIONAL): AddressDataset {
  const builder = new TableBuilder();
  for (const input of generateNational(options)) builder.add(input);
  return datasetFromTable(builder.build(), `national-${options.seed}-${options.count}`, 'sample');
}
