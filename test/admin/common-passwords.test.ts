import { describe, expect, it } from 'vitest';
import { passwordProblem } from '#admin';
import { COMMON_PASSWORDS } from '../../src/admin/people/common-passwords.ts';

const COMMON = 'That password is on a list of common passwords. Choose another.';

describe('common passwords', () => {
  it('reads the whole list from its data file: every entry lowercased, of 10 characters or more', () => {
    expect(COMMON_PASSWORDS.size).toBe(1557);
    const odd = [...COMMON_PASSWORDS].filter((p) => p.length < 10 || p !== p.toLowerCase() || p !== p.trim());
    expect(odd).toEqual([]);
  });

  it('refuses the first and the last entry of the file, whatever their case and surrounding spaces', () => {
    expect(passwordProblem('qwertyuiop', 'ann@example.com')).toBe(COMMON);
    expect(passwordProblem(' 87654321VV ', 'ann@example.com')).toBe(COMMON);
  });

  it('accepts a long password that is not on the list', () => {
    expect(passwordProblem('correct horse battery', 'ann@example.com')).toBeUndefined();
  });
});
