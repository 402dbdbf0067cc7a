/**
 * The per-address columns of a loaded data set. Strings are pool ids (0 = null); coordinates
 * are micro-degrees (exact to the 6 decimals the API prints); a row's street/locality lives in
 * its group, found by binary search over group boundaries, so rows carry no group column.
 */
export const NO_COORDINATE = -2147483648;

export const ROW_STRING_COLUMNS = [
  'numberFirst',
  'numberLast',
  'flat',
  'level',
  'lot',
  'site',
  'legalParcel',
  'boxNumber',
] as const;
export type RowStringColumn = (typeof ROW_STRING_COLUMNS)[number];

export interface RowColumns {
  readonly strings: Readonly<Record<RowStringColumn, Uint32Array>>;
  /** Small-vocabulary pool ids (unit and level types). */
  readonly flatType: Uint8Array;
  readonly levelType: Uint8Array;
  readonly latitude: Int32Array;
  readonly longitude: Int32Array;
  readonly pidPrefix: Uint8Array;
  readonly pidNumber: Uint32Array;
  /** Row of the canonical (principal) address; the row itself when it is canonical. */
  readonly canonical: Uint32Array;
}

/** Street-locality (or box-locality) groups: the unit search ranks before it looks at numbers. */
export interface GroupColumns {
  readonly count: number;
  readonly streetName: Uint32Array;
  readonly streetType: Uint32Array;
  readonly streetSuffix: Uint32Array;
  readonly boxType: Uint32Array;
  readonly locality: Uint32Array;
  readonly state: Uint8Array;
  readonly postcode: Uint32Array;
  /** rowStart[g]..rowStart[g+1] are the rows of group g (length count + 1). */
  readonly rowStart: Uint32Array;
}
