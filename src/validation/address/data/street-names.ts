/**
 * Real, common Australian street names (colonial figures, prime ministers, native plants,
 * landmarks, surnames) and the street-type mix of a typical suburb. The generator draws
 * street-locality pairs from these; search quality tests rely on the spellings here.
 */
export const STREET_NAMES: readonly string[] =
  `George Pitt Elizabeth King Queen William Victoria Albert Church High Park Railway Station
Bridge Main Short Smith Market Castlereagh Macquarie Oxford Crown Bourke Collins Flinders Swanston Lonsdale Exhibition
Spencer Russell Adelaide Ann Edward Margaret Mary Charlotte Alice Wickham Hay Murray Wellington Barrack Grenfell Rundle
Hindley Gouger Franklin Waymouth Currie Sturt Angas Pulteney Liverpool Bathurst Goulburn Campbell Kent Sussex Clarence
York Harrington Cumberland Phillip Macleay Bayswater Riley Cleveland Abercrombie Wilson Neville Atchison Anzac Beach
Marine Ocean Bay Harbour Hill Ridge Valley Forest Grove Wattle Acacia Banksia Waratah Jacaranda Bottlebrush Ironbark
Kurrajong Boronia Grevillea Melaleuca Casuarina Camellia Magnolia Rose Lily Violet Daisy Iris Orchid Lavender Jasmine
Oak Elm Ash Pine Cedar Willow Poplar Maple Birch Laurel Myrtle Cypress Olive Hume Hovell Oxley Mitchell Leichhardt
Kennedy Burke Wills Bass Cook Banks Hunter Bligh Darling Gipps Denison Young Belmore Parkes Barton Deakin Lyons Curtin
Chifley Menzies Holt Whitlam Fraser Hawke Keating Lawson Paterson Gilmore Kendall Wentworth Blaxland Bradman Lindsay
Streeton Roberts Namatjira Monash Chauvel Gallipoli Kokoda Tobruk Federation Jubilee Coronation Centenary Commercial
Enterprise Progress Lake River Creek Mill Quarry School College Hospital Showground Racecourse Pacific Princes Warrego
Newell Brown Jones Taylor Johnson White Martin Anderson Thompson Walker Harris Ryan Robinson Kelly Davis Wright Evans
Green Hall Wood Jackson Clarke Hughes Edwards Turner Scott Moore Cooper Ward Morris Baker Murphy O'Connell McDonald
McKenzie Stewart Douglas Gordon Grant Hamilton Henderson Lachlan Nelson Norton Palmer Quinn Spencer Tucker Vaughan
Wallace Bellevue Belmont Fairview Glenview Highfield Hillcrest Kingsway Parkview Riverview Seaview Sunnyside Woodlands
Koala Wombat Kookaburra Lorikeet Rosella Currawong Magpie Pelican Heron Brolga Jabiru Platypus Echidna Wallaby
Mulga Coolabah Yarra Tamar Derwent Hawkesbury Nepean Shoalhaven Clyde Snowy Murrumbidgee Lachlan Barwon Avoca Loddon
Carrington Dalley Ferguson Forbes Gladstone Halifax Jersey Kitchener Lang Mort Napier Nicholson Onslow Percy Raglan
Salisbury Stanley Tennyson Union Verona Wharf Windsor Yeo Dowling Ebley Glenayr Lennox Moncur Norfolk Rawson Stephen`
    .split(/\s+/)
    .filter((name, index, all) => all.indexOf(name) === index);

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
 * Streets a user of the real service would type first: capital-city CBD grids and the
 * examples in the API reference (Unit 2, 21 Kent Road DAPTO; 11-15 Neville Street RYDE;
 * Level 3, 25 Atchison Street ST LEONARDS). The generator lays these out before random ones.
 */
export const LANDMARK_STREETS: Readonly<Record<string, readonly string[]>> = {
  'SYDNEY NSW': [
    'George Street',
    'Pitt Street',
    'Elizabeth Street',
    'Castlereagh Street',
    'Kent Street',
    'Sussex Street',
    'Clarence Street',
    'York Street',
    'Market Street',
    'King Street',
    'Hunter Street',
    'Bridge Street',
    'Macquarie Street',
    'Phillip Street',
    'Liverpool Street',
    'Bathurst Street',
    'Park Street',
  ],
  'MELBOURNE VIC': [
    'Collins Street',
    'Bourke Street',
    'Flinders Street',
    'Swanston Street',
    'Elizabeth Street',
    'Lonsdale Street',
    'Exhibition Street',
    'Spencer Street',
    'Russell Street',
    'Queen Street',
    'William Street',
    'King Street',
  ],
  'BRISBANE CITY QLD': [
    'Queen Street',
    'Adelaide Street',
    'Ann Street',
    'Edward Street',
    'Albert Street',
    'George Street',
    'Elizabeth Street',
    'Charlotte Street',
    'Mary Street',
    'Margaret Street',
    'Alice Street',
    'Wickham Terrace',
  ],
  'ADELAIDE SA': [
    'King William Street',
    'Hindley Street',
    'Grenfell Street',
    'Currie Street',
    'Waymouth Street',
    'Flinders Street',
    'Gouger Street',
    'Franklin Street',
    'Angas Street',
    'Pulteney Street',
    'North Terrace',
  ],
  'PERTH WA': [
    'Hay Street',
    'Murray Street',
    'St Georges Terrace',
    'Wellington Street',
    'Barrack Street',
    'William Street',
    'Adelaide Terrace',
  ],
  'HOBART TAS': [
    'Elizabeth Street',
    'Collins Street',
    'Liverpool Street',
    'Macquarie Street',
    'Davey Street',
    'Murray Street',
    'Argyle Street',
    'Harrington Street',
  ],
  'DARWIN CITY NT': ['Smith Street', 'Mitchell Street', 'Cavenagh Street', 'Knuckey Street', 'The Esplanade'],
  'CITY ACT': ['Northbourne Avenue', 'London Circuit', 'Bunda Street', 'Akuna Street', 'Marcus Clarke Street'],
  'DAPTO NSW': ['Kent Road', 'Princes Highway'],
  'RYDE NSW': ['Neville Street', 'Victoria Road', 'Blaxland Road', 'Church Street'],
  'ST LEONARDS NSW': ['Atchison Street', 'Pacific Highway', 'Christie Street'],
  'PARRAMATTA NSW': ['Church Street', 'George Street', 'Macquarie Street', 'Smith Street'],
  'ST KILDA VIC': ['Fitzroy Street', 'Acland Street', 'Grey Street'],
  'KATOOMBA NSW': ['Katoomba Street', 'Lurline Street', 'Great Western Highway'],
};
