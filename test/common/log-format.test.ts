import { describe, expect, it } from 'vitest';
import { logFormat, logFormatProblem } from '#common';
import { wantsColour } from '../../src/common/log-format.ts';

const terminal = { isTTY: true };
const pipe = { isTTY: false };

describe('the log format', () => {
  it('is readable text on a terminal and JSON lines on a pipe or file', () => {
    expect(logFormat({}, terminal)).toBe('pretty');
    expect(logFormat({}, pipe)).toBe('json');
    expect(logFormat({}, {})).toBe('json');
  });

  it('follows LOG_FORMAT over the terminal check, trimmed, with empty meaning unset', () => {
    expect(logFormat({ LOG_FORMAT: 'json' }, terminal)).toBe('json');
    expect(logFormat({ LOG_FORMAT: ' pretty ' }, pipe)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: '' }, terminal)).toBe('pretty');
  });

  it('names a LOG_FORMAT that is neither format, and accepts the two that are', () => {
    expect(logFormatProblem({ LOG_FORMAT: 'text' })).toBe('LOG_FORMAT: must be one of json, pretty (got "text")');
    expect(logFormatProblem({ LOG_FORMAT: 'pretty' })).toBeUndefined();
    expect(logFormatProblem({})).toBeUndefined();
  });

  it('colours a terminal unless NO_COLOR is set, and a pipe only when FORCE_COLOR asks', () => {
    expect(wantsColour({}, terminal)).toBe(true);
    expect(wantsColour({ NO_COLOR: '1' }, terminal)).toBe(false);
    expect(wantsColour({}, pipe)).toBe(false);
    expect(wantsColour({ FORCE_COLOR: '1' }, pipe)).toBe(true);
    expect(wantsColour({ FORCE_COLOR: '0' }, terminal)).toBe(false);
  });
});
