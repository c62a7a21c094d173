import { describe, expect, it } from 'vitest';
import { requiredAsciiLiterals, requiredLiterals } from '../../../../main/tools/search/literals';

describe('requiredLiterals', () => {
  it.each([
    ['TODO', ['TODO']],
    ['TODO|FIXME', ['TODO', 'FIXME']],
    ['function\\s+\\w+\\(', ['function']],
    ['colou?r', ['colo']],
    ['ab*c', ['a']],
    ['a{2}bc', ['bc']],
    ['foo(bar)?baz', ['foo']],
    ['\\.js$', ['.js']],
    ['\\x41BC', ['BC']],
    ['\\k<n>zz', ['zz']],
    ['^查找|查找这', ['查找', '查找这']],
    ['\\d{3}-\\d{4}', ['-']],
  ])('%s must contain one of %j', (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });

  it.each(['(a+)+$', 'x|.*', '[abc]+', '\\d{3}\\s\\d{4}', 'a{', ')'])('knows no required text in %s', (pattern) => {
    expect(requiredLiterals(pattern)).toBeNull();
  });

  it('keeps only ASCII runs for case-insensitive matching', () => {
    expect(requiredAsciiLiterals('查找 needle')).toEqual([' needle']);
    expect(requiredAsciiLiterals('查找')).toBeNull();
  });
});
