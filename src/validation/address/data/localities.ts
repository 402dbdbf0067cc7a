import { dataRows } from './data-file.ts';
import { isStateCode, type StateCode } from './vocabulary.ts';

export interface Locality {
  readonly name: string;
  readonly state: StateCode;
  readonly postcode: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly weight: number;
}

/**
 * A compact table of real Australian localities (localities.csv): name, postcode, approximate
 * centroid and a relative size weight (how many sample addresses it gets). Coordinates are
 * rounded to about a kilometre; they place sample addresses plausibly, they are not survey data.
 * Several names recur across states on purpose (Epping, Richmond, Brighton, Kingston,
 * Griffith, Claremont, Paddington): real data has them and search must rank by context.
 */
export const LOCALITIES: readonly Locality[] = dataRows('localities.csv', [
  'state',
  'name',
  'postcode',
  'latitude',
  'longitude',
  'weight',
]).map(([state, name, postcode, latitude, longitude, weight]) => {
  if (!isStateCode(state!)) throw new Error(`localities.csv: unknown state ${state}`);
  return {
    name: name!,
    state,
    postcode: postcode!,
    latitude: Number(latitude),
    longitude: Number(longitude),
    weight: Number(weight),
  };
});
