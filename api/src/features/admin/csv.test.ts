import { describe, expect, test } from 'vitest'
import { csvFilename, csvLines } from './csv.ts'

/** CONTRACT §7: RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */
describe('csvLines', () => {
  test.each([
    ['=1+1', "'=1+1"],
    ['+x', "'+x"],
    ['-x', "'-x"],
    ['@x', "'@x"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['x=1', 'x=1'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
  ])('%j → %j', (cell, written) => {
    expect(csvLines([[cell]])).toBe(`${written}\r\n`)
  })

  test('numbers, booleans and nulls are text; a negative number is escaped like any leading -', () => {
    expect(csvLines([[3, -2, true, null]])).toBe("3,'-2,true,\r\n")
  })

  test('a file is named by tab and UTC date', () => {
    expect(csvFilename('posts', new Date('2026-11-25T23:30:00Z'))).toBe('posts-2026-11-25.csv')
  })
})
