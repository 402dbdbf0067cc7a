import { apiError } from '#common';
import type { ValidationRoute } from '../../types.ts';
import type { AddressDataset } from '../dataset/load.ts';
import { addressObject } from '../format/address-object.ts';
import { decodeAddressId } from '../format/address-id.ts';
import { censusYear, flag, format, recordId } from './params.ts';
import { addressRoute } from './route.ts';

/** Our path (the public reference does not show one): the record behind an autocomplete id. */
export const METADATA_PATH = '/api/au/address/metadata';

/**
 * `GET /api/au/address/metadata`: exactly one of `id` (from autocomplete), `gnaf_id` or
 * `dpid`; answers the flat address object plus `success`. An unknown id is 1011 (404).
 * This data set holds no Australia Post DPIDs, so a `dpid` is always unknown. `census`
 * defaults to 2016 on this endpoint, so the census ids are always part of the object.
 */
/** The documented error body's extra field, on 1011 as on every other error of this route. */
const ERROR_EXTRA = { completions: [] };

export function metadataRoute(data: () => AddressDataset): ValidationRoute {
  return addressRoute(METADATA_PATH, ERROR_EXTRA, (query) => {
    format(query);
    const { name, value } = recordId(query);
    const gps = flag(query, 'gps', false);
    const census = censusYear(query, true);
    const dataset = data();
    const row =
      name === 'id'
        ? decodeAddressId(dataset.salt, value, dataset.table.size)
        : name === 'gnaf_id'
          ? dataset.table.rowByPid(value.toUpperCase())
          : -1;
    if (row < 0) return apiError('record_not_found', { extra: ERROR_EXTRA });
    return {
      status: 200,
      body: {
        ...addressObject(dataset.table, row, { salt: dataset.salt, gps, extended: true, census }),
        success: true,
      },
    };
  });
}
