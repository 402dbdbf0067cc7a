import { describe, expect, it } from 'vitest';
import { PidTable } from '../../../src/validation/address/gnaf/pid-table.ts';

describe('pid table', () => {
  it('finds every value stored for a million G-NAF pids after growing', () => {
    const table = new PidTable();
    for (let i = 0; i < 1_000_000; i++) table.set(`GANSW${716_000_000 + i * 7}`, i, 5 - i);
    expect(table.size).toBe(1_000_000);
    for (let i = 0; i < 1_000_000; i += 997) expect(table.get(`GANSW${716_000_000 + i * 7}`)).toEqual([i, 5 - i]);
    expect(table.get('GANSW716000001')).toBeUndefined();
  });

  it('keeps pids of another prefix or shape apart, and replaces a value set twice', () => {
    const table = new PidTable();
    table.set('GAVIC411000001', 1, 2);
    table.set('GANSW411000001', 3, 4);
    table.set('odd-pid', 5, 6);
    table.set('GAVIC4110000012345', 7, 8);
    table.set('GAVIC411000001', 9, 10);
    expect(table.size).toBe(4);
    expect(table.get('GAVIC411000001')).toEqual([9, 10]);
    expect(table.get('GANSW411000001')).toEqual([3, 4]);
    expect(table.get('odd-pid')).toEqual([5, 6]);
    expect(table.get('GAVIC4110000012345')).toEqual([7, 8]);
    expect(table.get('GAVIC411000002')).toBeUndefined();
    expect(table.get('GA411000001')).toBeUndefined();
  });
});
