import {
  FLAT_TYPES,
  LEVEL_TYPES,
  STATE_NAMES,
  STREET_SUFFIXES,
  STREET_TYPES,
  type StateCode,
} from '../data/vocabulary.ts';
import type { AddressInput } from '../dataset/address-input.ts';
import type { AuthorityTable, StateTable } from './files.ts';

/** Column headers of the release tables, as G-NAF writes them (test/fixtures/gnaf). */
export const HEADERS: Readonly<Record<StateTable, string>> = {
  ADDRESS_DETAIL:
    'ADDRESS_DETAIL_PID|DATE_CREATED|DATE_LAST_MODIFIED|DATE_RETIRED|BUILDING_NAME|LOT_NUMBER_PREFIX|LOT_NUMBER|' +
    'LOT_NUMBER_SUFFIX|FLAT_TYPE_CODE|FLAT_NUMBER_PREFIX|FLAT_NUMBER|FLAT_NUMBER_SUFFIX|LEVEL_TYPE_CODE|' +
    'LEVEL_NUMBER_PREFIX|LEVEL_NUMBER|LEVEL_NUMBER_SUFFIX|NUMBER_FIRST_PREFIX|NUMBER_FIRST|NUMBER_FIRST_SUFFIX|' +
    'NUMBER_LAST_PREFIX|NUMBER_LAST|NUMBER_LAST_SUFFIX|STREET_LOCALITY_PID|LOCATION_DESCRIPTION|LOCALITY_PID|' +
    'ALIAS_PRINCIPAL|POSTCODE|PRIVATE_STREET|LEGAL_PARCEL_ID|CONFIDENCE|ADDRESS_SITE_PID|LEVEL_GEOCODED_CODE|' +
    'PROPERTY_PID|GNAF_PROPERTY_PID|PRIMARY_SECONDARY',
  ADDRESS_DEFAULT_GEOCODE:
    'ADDRESS_DEFAULT_GEOCODE_PID|DATE_CREATED|DATE_RETIRED|ADDRESS_DETAIL_PID|GEOCODE_TYPE_CODE|LONGITUDE|LATITUDE',
  ADDRESS_ALIAS: 'ADDRESS_ALIAS_PID|DATE_CREATED|DATE_RETIRED|PRINCIPAL_PID|ALIAS_PID|ALIAS_TYPE_CODE|ALIAS_COMMENT',
  STREET_LOCALITY:
    'STREET_LOCALITY_PID|DATE_CREATED|DATE_RETIRED|STREET_CLASS_CODE|STREET_NAME|STREET_TYPE_CODE|' +
    'STREET_SUFFIX_CODE|LOCALITY_PID|GNAF_STREET_PID|GNAF_STREET_CONFIDENCE|GNAF_RELIABILITY_CODE',
  LOCALITY:
    'LOCALITY_PID|DATE_CREATED|DATE_RETIRED|LOCALITY_NAME|PRIMARY_POSTCODE|LOCALITY_CLASS_CODE|STATE_PID|' +
    'GNAF_LOCALITY_PID|GNAF_RELIABILITY_CODE',
  STATE: 'STATE_PID|DATE_CREATED|DATE_RETIRED|STATE_NAME|STATE_ABBREVIATION',
};

export const CREATED = '2024-02-01';

/** G-NAF's STATE_PID of each state. */
export function statePid(state: StateCode): number {
  return ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'OT'].indexOf(state) + 1;
}

export function stateRow(state: StateCode): string {
  return `${statePid(state)}|2011-08-31||${STATE_NAMES[state].toUpperCase()}|${state}`;
}

/** Authority code tables: display name → code, and the rows of each file. */
export class AuthorityCodes {
  readonly #codes = new Map<AuthorityTable, Map<string, [code: string, name: string]>>();

  constructor() {
    const load = (table: AuthorityTable, entries: [string, string][]): void => {
      this.#codes.set(table, new Map(entries.map(([code, name]) => [name.toUpperCase(), [code, name.toUpperCase()]])));
    };
    load('FLAT_TYPE_AUT', Object.entries(FLAT_TYPES));
    load('LEVEL_TYPE_AUT', Object.entries(LEVEL_TYPES));
    load('STREET_SUFFIX_AUT', Object.entries(STREET_SUFFIXES));
    load(
      'STREET_TYPE_AUT',
      Object.entries(STREET_TYPES).map(([full, abbreviations]) => [full, abbreviations[0] ?? full]),
    );
  }

  /** The code of a display value ("Apartment" → APT), adding one for a value not in the table. */
  code(table: AuthorityTable, display: string | null): string {
    if (display === null) return '';
    const upper = display.toUpperCase();
    const codes = this.#codes.get(table)!;
    let entry = codes.get(upper);
    if (!entry) {
      entry = [upper, upper];
      codes.set(upper, entry);
    }
    return table === 'STREET_TYPE_AUT' ? upper : entry[0];
  }

  rows(table: AuthorityTable): string[] {
    const rows = [...this.#codes.get(table)!.values()].map(([code, name]) =>
      table === 'STREET_TYPE_AUT' ? `${code}|${name}|${code}` : `${code}|${name}|${name}`,
    );
    return ['CODE|NAME|DESCRIPTION', ...new Set(rows)];
  }
}

const NUMBER = /^([A-Z]*)(\d+)([A-Z]*)$/;

/** "12A" → "|12|A", "A5" → "A|5|": the prefix, number and suffix columns of one number. */
export function numberColumns(value: string | null): string {
  if (value === null) return '||';
  const match = NUMBER.exec(value);
  return match ? `${match[1]}|${match[2]}|${match[3]}` : `|${value}|`;
}

export interface DetailKeys {
  readonly streetPid: string;
  readonly localityPid: string;
  readonly flatCode: string;
  readonly levelCode: string;
}

export function detailRow(a: AddressInput, keys: DetailKeys, sequence: number): string {
  const upper = (value: string | null): string => (value === null ? '' : value.toUpperCase());
  return (
    `${a.gnafPid}|${CREATED}|${CREATED}||${upper(a.siteName)}|${numberColumns(a.lot)}|${keys.flatCode}|` +
    `${numberColumns(a.flat)}|${keys.levelCode}|${numberColumns(a.level)}|${numberColumns(a.numberFirst)}|` +
    `${numberColumns(a.numberLast)}|${keys.streetPid}||${keys.localityPid}|${a.aliasOfPid ? 'A' : 'P'}|` +
    `${a.postcode}||${a.legalParcelId ?? ''}|2|${400_000_000 + sequence}|7|||${a.flat ? 'S' : ''}`
  );
}
