import type { Random } from './prng.ts';

/**
 * Building blocks for made-up but plausible Australian names: Aboriginal-derived place names
 * built from syllables (Wonga, Kurrajong, Gundagai), English compounds (Ashford, Stanley) and
 * the descriptive words that turn one name into many (Bondi → Bondi Junction, Mount Bondi).
 */
const ONSETS = `WAR WON MUR BUN DUN KOO YAR GUN NAR BAL MAL COO WAL BIL YAN KAR BOO TAL WIL KUR JIN DAL GAR NOO
CUL BUR TUM WAG MIN GOO BIN TOO WOOM BEN DAR MUL PIN KIN BAR BOR LEM TAR YUN MOO GIL JER WON NUN`.split(/\s+/);
const MIDDLES = `RA RI RO GA GI BA BI DA DI LA LI NA NI YA RAM ROO LOO WA MA MI`.split(/\s+/);
const ENDINGS = `GONG BAH BIN DRA GAI ONG ARRA OO UP ILLA ALLA INGA ONGA URRA ANDA ERRY ONA INDI ERT ABA OOLA AWA
ILLY EENA UNDA OWIE ARRI ANG OOK`.split(/\s+/);
const STEMS = `ASH BRIGHT CLARE DEAN ELM FAIR GLEN HAM KING LANG MARL NEW OAK PEN RED SHEL STAN THORN WEST WOOD
BEL CAR DOR EDEN FERN GREEN HOLT KEN LIN MAR MILL NOR OX PRIN ROSE SAND SUN WIN BRAD CHEL HAR`.split(/\s+/);
const TAILS = `FIELD FORD LEY TON WOOD VILLE BURY BROOK DALE HURST MORE WORTH HAM STONE MEAD LEIGH COMBE GATE
BRIDGE WELL MONT VALE SIDE`.split(/\s+/);

/** A syllable-built place name in upper case: WONGABIN, KURRAGONG, ASHFORD. */
export function syllableName(random: Random): string {
  if (random.chance(0.35)) return random.pick(STEMS) + random.pick(TAILS);
  const middle = random.chance(0.55) ? random.pick(MIDDLES) : '';
  return random.pick(ONSETS) + middle + random.pick(ENDINGS);
}

/** Words added after a place name (Bondi Junction, Castle Hill, Dee Why North). */
export const PLACE_SUFFIXES = `NORTH SOUTH EAST WEST HEIGHTS PARK VALE HILL HILLS BEACH CREEK RIVER DOWNS PLAINS
GARDENS JUNCTION FLAT GROVE RIDGE POINT BAY HEAD LAKES VALLEY WATERS ESTATE MEADOWS RISE SPRINGS CROSSING
BRIDGE WELLS FOREST ISLAND`.split(/\s+/);

/** Words put before a place name (Mount Druitt, Port Macquarie, Lake Cargelligo). */
export const PLACE_PREFIXES = ['MOUNT', 'PORT', 'LAKE', 'GLEN', 'UPPER', 'LOWER', 'NORTH', 'SOUTH', 'WEST', 'EAST'];

/** Title-cased words for street names: "Old Mill", "Golden Grove". */
export const STREET_ADJECTIVES = `Old New Upper Lower Green Golden Silver Red Long Little Great High Grand Royal Sunny
Shady Pleasant Hidden Quiet Wild`.split(/\s+/);
export const STREET_NOUNS = `Hill Valley Gully Creek Ridge Park Mill Farm Orchard Bridge Quarry Station Vale Meadow
Gate Point View Wood Field Spring`.split(/\s+/);
export const FIRST_NAMES = `John James William Thomas George Henry Charles Edward Mary Elizabeth Margaret Ann Alice
Jane Sarah Emily Robert Richard Arthur Walter Albert Frederick Louisa Florence Edith Grace Ellen Harriet Patrick
Michael Peter Paul David Daniel Joseph Samuel Hugh Ernest Percy`.split(/\s+/);
