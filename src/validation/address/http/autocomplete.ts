import { addressSearchChannel } from '#common';
import type { ValidationRoute } from '../../types.ts';
import type { AddressDataset } from '../dataset/load.ts';
import { encodeAddressId } from '../format/address-id.ts';
import { fullAddress, readParts } from '../format/address-parts.ts';
import { highlight } from '../format/highlight.ts';
import { parseQuery } from '../search/query.ts';
import { flag, format, maxResults, postBox, requiredText, source, stateCodes } from './params.ts';
import { addressRoute } from './route.ts';

export const AUTOCOMPLETE_PATH = '/api/au/address/autocomplete';

/** `GET /api/au/address/autocomplete`: ranked completions for a partial address. */
export function autocompleteRoute(data: () => AddressDataset): ValidationRoute {
  return addressRoute(AUTOCOMPLETE_PATH, { completions: [] }, (query) => {
    format(query);
    requiredText(query, 'q');
    const max = maxResults(query);
    const withHighlight = flag(query, 'highlight', false);
    const filters = {
      states: stateCodes(query),
      postBox: postBox(query),
      canonicalOnly: flag(query, 'canonical', false),
      ...source(query),
    };
    const dataset = data();
    // Untrimmed: a trailing space ends the last word as a comma does ("hill " is not "hillcrest").
    const parsed = parseQuery(query.get('q')!, { prefix: true });
    // Timed for the upstream's metrics when it subscribes; otherwise a direct call.
    const search = dataset.search;
    const hits = addressSearchChannel.traceSync(search.search, {}, search, parsed, {
      max,
      filters,
      nearbyNumbers: true,
    });
    const completions = hits.map((hit) => {
      const full = fullAddress(readParts(dataset.table, hit.row, hit.group));
      const completion: Record<string, string> = {
        full_address: full,
        id: encodeAddressId(dataset.salt, hit.row),
        canonical_address_id: encodeAddressId(dataset.salt, dataset.table.canonical(hit.row)),
      };
      if (withHighlight) completion.highlighted_full_address = highlight(full, parsed);
      return completion;
    });
    return { status: 200, body: { completions, success: true } };
  });
}
