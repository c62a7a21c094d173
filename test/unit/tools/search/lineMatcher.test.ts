import { describe, expect, it } from 'vitest';
import { makeLineMatcher, type LineMatcher } from '../../../../main/tools/search/lineMatcher';
import { compileSearchRegex } from '../../../../main/tools/search/regex';

const matcher = (pattern: string, ignoreCase = false): LineMatcher => {
  const made = makeLineMatcher(pattern, ignoreCase);
  if ('error' in made) throw new Error(made.error);
  return made;
};

describe('the line matcher behind search_text', () => {
  it('runs repetition on the linear engine, and look-ahead or back-references on JavaScript’s', () => {
    expect(matcher('(a+)+$').engine).toBe('linear');
    expect(matcher('(?<=x)a+').engine).toBe('linear');
    expect(matcher('(a+)+(?=b)').engine).toBe('backtracking');
    expect(matcher('(a)\\1+').engine).toBe('backtracking');
    expect(matcher('TODO|FIXME').engine).toBe('backtracking');
  });

  it('answers a catastrophic pattern on a long line', () => {
    expect(matcher('(a+)+$').find(`${'a'.repeat(5000)}!`)).toBeNull();
    expect(matcher('(\\w+\\s?)+$').find(`${'word '.repeat(2000)}!`)).toBeNull();
  });

  it.each([
    ['\\s', 'a\u00a0b'],
    ['x\\s+y', 'x\u3000\ty'],
    ['a.+b', 'a\rb'],
    ['a.+b', 'a\u2028b'],
    ['^[\\s\\d]+$', '12\u00a034'],
    ['\\S+\\s', 'abc\u00a0'],
    ['b.', '😀😀ab😀'],
    ['(?<name>\\w+)=\\d+', 'key=12'],
    ['[^]+', 'anything'],
    ['a{2,}', 'xaaaa'],
    ['a{', 'xa{'],
    ['\\-+', 'x--'],
    ['\\u0041+', 'AAA'],
    ['k+', 'K\u212a'],
  ])('matches /%s/ on %j as JavaScript does', (pattern, line) => {
    for (const ignoreCase of [false, true]) {
      const expected = (compileSearchRegex(pattern, ignoreCase) as RegExp).exec(line);
      const found = matcher(pattern, ignoreCase).find(line);
      expect(found === null, `${pattern} ${ignoreCase}`).toBe(expected === null);
    }
  });

  it('finds where a match is in a line too long to show whole', () => {
    const line = `${'x'.repeat(1000)}needle${'y'.repeat(1000)}`;
    expect(matcher('ne+dle').find(line)).toEqual({ index: 1000, length: 6 });
  });
});
