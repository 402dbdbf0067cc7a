import type { StateCode } from '../data/vocabulary.ts';

/**
 * One address as the generator and the G-NAF importer produce it and the table builder
 * consumes it: display-ready strings (street parts in title case, locality in upper case),
 * null where the attribute is empty. It lives only while a data set is being built.
 */
export interface AddressInput {
  gnafPid: string | null;
  /** G-NAF pid of the principal address when this one is an alias. */
  aliasOfPid: string | null;
  siteName: string | null;
  lot: string | null;
  flatType: string | null;
  flat: string | null;
  levelType: string | null;
  level: string | null;
  numberFirst: string | null;
  numberLast: string | null;
  streetName: string | null;
  streetType: string | null;
  streetSuffix: string | null;
  boxType: string | null;
  boxNumber: string | null;
  locality: string;
  state: StateCode;
  postcode: string;
  latitude: number | null;
  longitude: number | null;
  legalParcelId: string | null;
}

export function emptyInput(locality: string, state: StateCode, postcode: string): AddressInput {
  return {
    gnafPid: null,
    aliasOfPid: null,
    siteName: null,
    lot: null,
    flatType: null,
    flat: null,
    levelType: null,
    level: null,
    numberFirst: null,
    numberLast: null,
    streetName: null,
    streetType: null,
    streetSuffix: null,
    boxType: null,
    boxNumber: null,
    locality,
    state,
    postcode,
    latitude: null,
    longitude: null,
    legalParcelId: null,
  };
}

/** "STREET" → "Street", "ST GEORGES" → "St Georges", "O'CONNELL" → "O'Connell". */
export function titleCase(value: string): string {
  return value
    .toLowerCase()
    .replace(/(^|[\s\-'])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase())
    .replace(/\bMc([a-z])/g, (_m, ch: string) => 'Mc' + ch.toUpperCase());
}
