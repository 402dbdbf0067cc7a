/**
 * Address vocabulary shared by the generator, the G-NAF importer, formatting and search:
 * street types (G-NAF STREET_TYPE_AUT: full code, common abbreviations), unit ("flat") and
 * level types, street suffixes, states, and the synonym groups search expands both ways.
 */
export const STATE_CODES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA', 'OT'] as const;
export type StateCode = (typeof STATE_CODES)[number];

export function isStateCode(value: string): value is StateCode {
  return (STATE_CODES as readonly string[]).includes(value);
}

export const STATE_NAMES: Readonly<Record<StateCode, string>> = {
  ACT: 'australian capital territory',
  NSW: 'new south wales',
  NT: 'northern territory',
  QLD: 'queensland',
  SA: 'south australia',
  TAS: 'tasmania',
  VIC: 'victoria',
  WA: 'western australia',
  OT: 'other territories',
};

/** Street types: the full form G-NAF stores, then abbreviations people type. */
export const STREET_TYPES: Readonly<Record<string, readonly string[]>> = {
  STREET: ['st'],
  ROAD: ['rd'],
  AVENUE: ['ave', 'av'],
  PLACE: ['pl'],
  COURT: ['ct', 'crt'],
  CRESCENT: ['cres', 'cr', 'cresc'],
  DRIVE: ['dr', 'drv'],
  CLOSE: ['cl'],
  LANE: ['ln'],
  PARADE: ['pde'],
  WAY: ['wy'],
  TERRACE: ['tce', 'terr'],
  CIRCUIT: ['cct'],
  CIRCLE: ['cir'],
  GROVE: ['gr', 'gve'],
  BOULEVARD: ['bvd', 'blvd'],
  HIGHWAY: ['hwy'],
  ESPLANADE: ['esp'],
  SQUARE: ['sq'],
  WALK: ['wk'],
  PARKWAY: ['pwy', 'pkwy'],
  GARDENS: ['gdns'],
  RISE: [],
  ROW: [],
  MEWS: [],
  CHASE: ['ch'],
  VIEW: ['vw'],
  TRACK: ['trk'],
};

/** Name words G-NAF keeps abbreviated or spelled out inconsistently (ST KILDA, MOUNT DRUITT). */
export const NAME_SYNONYMS: readonly (readonly string[])[] = [
  ['saint', 'st'],
  ['mount', 'mt'],
  ['point', 'pt'],
  ['north', 'nth'],
  ['south', 'sth'],
  ['fort', 'ft'],
];

export const STREET_SUFFIXES: Readonly<Record<string, string>> = {
  N: 'North',
  S: 'South',
  E: 'East',
  W: 'West',
  EX: 'Extension',
  LR: 'Lower',
  UP: 'Upper',
  CN: 'Central',
};

/** G-NAF FLAT_TYPE_AUT codes → display names. */
export const FLAT_TYPES: Readonly<Record<string, string>> = {
  UNIT: 'Unit',
  FLAT: 'Flat',
  APT: 'Apartment',
  SHOP: 'Shop',
  SE: 'Suite',
  VLLA: 'Villa',
  TNHS: 'Townhouse',
  OFFC: 'Office',
  FCTY: 'Factory',
  WARD: 'Warehouse',
};

/** G-NAF LEVEL_TYPE_AUT codes → display names. */
export const LEVEL_TYPES: Readonly<Record<string, string>> = {
  L: 'Level',
  FL: 'Floor',
  G: 'Ground',
  B: 'Basement',
  M: 'Mezzanine',
  LG: 'Lower Ground',
  UG: 'Upper Ground',
  RT: 'Rooftop',
};

/** Postal box types (PAF); these addresses are what `post_box` filters. */
export const BOX_TYPES = ['PO Box', 'GPO Box', 'Locked Bag', 'Private Bag', 'CMB', 'RMS', 'RSD'] as const;

/** Words in a query that announce a unit, level or lot identifier. */
export const UNIT_WORDS: ReadonlySet<string> = new Set([
  'unit',
  'u',
  'flat',
  'f',
  'apt',
  'apartment',
  'shop',
  'suite',
  'se',
  'villa',
  'townhouse',
  'office',
]);
export const LEVEL_WORDS: ReadonlySet<string> = new Set(['level', 'lvl', 'l', 'floor', 'fl']);
export const LOT_WORDS: ReadonlySet<string> = new Set(['lot']);
