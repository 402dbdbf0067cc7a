import { SPARSE } from '../dataset/columns.ts';
import { addressSearchChannel } from '#common';
import type { ValidationRoute } from '../../types.ts';
import type { AddressDataset } from '../dataset/load.ts';
import { addressObject } from '../format/address-object.ts';
import { MATCHED } from '../search/group-scorer.ts';
import type { ParsedQuery } from '../search/query.ts';
import { parseQuery } from '../search/query.ts';
import type { SearchHit } from '../search/search-hit.ts';
import { censusYear, flag, format, ParamError, postBox, requiredText, stateCodes } from './params.ts';
import { addressRoute } from './route.ts';

export const VERIFICATION_PATH = '/api/au/address/v2/verification';

/**
 * `GET /api/au/address/v2/verification`: the best candidate for a complete address, accepted
 * only when it is the address the text names: street (or box) and locality or postcode
 * matched (a typo allowed, no unfinished word), the street or box number exact (or inside a
 * ranged number), the unit or lot named when the address has one, and the level named when
 * the address has one and no unit is named. Otherwise 200 with `matched: false`.
 */
export function verificationRoute(data: () => AddressDataset): ValidationRoute {
  return addressRoute(VERIFICATION_PATH, { completions: [] }, (query) => {
    format(query);
    const q = requiredText(query, 'q');
    const physical = flag(query, 'gnaf', true);
    const postal = flag(query, 'paf', true);
    if (!physical && !postal) throw new ParamError('Gnaf or paf must be 1');
    const gps = flag(query, 'gps', false);
    const extended = flag(query, 'extended', false);
    // A census year returns the Meshblock, SA1 and SA2 ids; omitted, nothing is returned.
    const census = censusYear(query, false);
    const filters = { states: stateCodes(query), postBox: postBox(query), canonicalOnly: false, physical, postal };
    const dataset = data();
    const parsed = parseQuery(q, { prefix: false });
    const search = dataset.search;
    const hit = addressSearchChannel.traceSync(search.search, {}, search, parsed, { max: 1, filters })[0];
    if (!hit || !verified(dataset, hit, parsed)) return { status: 200, body: { matched: false, success: true } };
    const address = addressObject(dataset.table, hit.row, { salt: dataset.salt, gps, extended, census });
    return { status: 200, body: { matched: true, success: true, address } };
  });
}

function verified(dataset: AddressDataset, hit: SearchHit, parsed: ParsedQuery): boolean {
  const s = dataset.table.rows.strings;
  const place = (hit.fields & (MATCHED.locality | MATCHED.postcode)) !== 0;
  const thoroughfare = (hit.fields & (MATCHED.street | MATCHED.box)) !== 0;
  // A street type the street does not have ("Lake Road" for Lake Street) names another street.
  if (!place || !thoroughfare || (hit.fields & MATCHED.wrongType) !== 0) return false;
  const numbered = s.numberFirst[hit.row] !== 0 || dataset.table.value(SPARSE.boxNumber, hit.row) !== 0;
  if (numbered && hit.number !== 'exact' && hit.number !== 'range') return false;
  if (!numbered && dataset.table.value(SPARSE.lot, hit.row) !== 0 && !parsed.lot && hit.number !== 'lot') return false;
  // Levels of one building are as ambiguous as its units: without the level (or a unit, which
  // names the dwelling and so its level: "502/100 X St") the hit is one level picked among several.
  const level = dataset.table.value(SPARSE.level, hit.row) !== 0 || dataset.table.rows.levelType[hit.row] !== 0;
  if (level && parsed.unit === null && parsed.level === null && parsed.levelName === null) return false;
  return dataset.table.value(SPARSE.flat, hit.row) === 0 || parsed.unit !== null;
}
