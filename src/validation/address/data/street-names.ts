import { dataLines, dataRows } from './data-file.ts';

/**
 * Real, common Australian street names (colonial figures, prime ministers, native plants,
 * landmarks, surnames; street-names.txt) and the street-type mix of a typical suburb. The
 * generator draws street-locality pairs from these; search quality tests rely on the spellings.
 */
export const STREET_NAMES: readonly string[] = [...new Set(dataLines('street-names.txt'))];

/** Street type codes (G-NAF full form) with their share of a suburb's streets, in percent. */
export const STREET_TYPE_MIX: readonly (readonly [string, number])[] = [
  ['STREET', 40],
  ['ROAD', 16],
  ['AVENUE', 9],
  ['PLACE', 5],
  ['COURT', 5],
  ['CRESCENT', 5],
  ['DRIVE', 5],
  ['CLOSE', 3],
  ['LANE', 3],
  ['PARADE', 2],
  ['WAY', 2],
  ['TERRACE', 2],
  ['CIRCUIT', 1],
  ['GROVE', 1],
  ['BOULEVARD', 1],
];

/** Site (building) names given to a few large properties. */
export const SITE_NAMES: readonly string[] = [
  'Police Station',
  'Public School',
  'Community Hall',
  'Medical Centre',
  'Shopping Centre',
  'Railway Station',
  'Post Office',
  'Bowling Club',
  'Council Chambers',
  'Public Library',
];

/**
 * Streets a user of the real service would type first (landmark-streets.csv: locality, street):
 * capital-city CBD grids and the examples in the API reference (Unit 2, 21 Kent Road DAPTO;
 * 11-15 Neville Street RYDE; Level 3, 25 Atchison Street ST LEONARDS). The generator lays these
 * out before random ones.
 */
export const LANDMARK_STREETS: Readonly<Record<string, readonly string[]>> = landmarkStreets();

function landmarkStreets(): Record<string, string[]> {
  const byLocality: Record<string, string[]> = {};
  for (const [locality, street] of dataRows('landmark-streets.csv', ['locality', 'street'])) {
    const streets = byLocality[locality!] ?? [];
    streets.push(street!);
    byLocality[locality!] = streets;
  }
  return byLocality;
}
