import { readFileSync } from 'node:fs';

/**
 * Common passwords of 10 or more characters, lowercased, one a line in common-passwords.txt:
 * the passwords list of @zxcvbn-ts/language-common 4.1.3 (MIT License; Copyright (c) 2012-2016
 * Dan Wheeler and Dropbox, Inc.; Copyright (c) 2021 @zxcvbn-ts). Shorter ones are refused by the
 * minimum length anyway. Read once at start from beside this module, as the migrations and the
 * portal's assets are: the Docker image copies src whole, so the file ships with the code.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== ''),
);
