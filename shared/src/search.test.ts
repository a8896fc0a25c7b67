import { describe, expect, test } from 'vitest'
import {
  matchText,
  parseSearchCursor,
  SearchQuery,
  searchCursorOf,
  searchWords,
  snippetAround,
  snippetFromMarked,
} from './search.ts'

describe('snippetFromMarked', () => {
  test.each([
    ['plain', 'no marks here', { text: 'no marks here', marks: [] }],
    ['one mark', 'a \u0001lake\u0002 swim', { text: 'a lake swim', marks: [[2, 6]] }],
    [
      'two marks',
      '\u0001The\u0002 \u0001Who\u0002',
      {
        text: 'The Who',
        marks: [
          [0, 3],
          [4, 7],
        ],
      },
    ],
    ['adjacent marks read as one', '\u0001book\u0002\u0001club\u0002', { text: 'bookclub', marks: [[0, 8]] }],
    ['an unclosed mark is dropped', 'a \u0001lake', { text: 'a lake', marks: [] }],
    ['markup stays text', '<b>\u0001x\u0002</b>', { text: '<b>x</b>', marks: [[3, 4]] }],
  ])('%s', (_name, marked, expected) => {
    expect(snippetFromMarked(marked, '\u0001', '\u0002')).toEqual(expected)
  })
})

describe('matchText', () => {
  test.each([
    ['a word at the start of a word', 'Running late', ['run'], [[0, 3]]],
    [
      'every word, merged when they overlap',
      'book club books',
      ['book', 'club'],
      [
        [0, 4],
        [5, 9],
        [10, 14],
      ],
    ],
    ['not in the middle of a word', 'snake', ['ake'], null],
    ['every word must be there', 'book club', ['book', 'chess'], null],
    ['no words', 'anything', [], null],
  ])('%s', (_name, text, words, expected) => {
    expect(matchText(text, words)).toEqual(expected)
  })
})

test('searchWords lower-cases and keeps letters and digits once', () => {
  expect(searchWords('Lake LAKE, 2026 <b>')).toEqual(['lake', '2026', 'b'])
})

test('snippetAround cuts a long text around its first mark and moves the marks', () => {
  const text = `${'x '.repeat(100)}lake ${'y '.repeat(100)}`
  const snippet = snippetAround(text, [[200, 204]], 40)
  expect(snippet.text.startsWith('…')).toBe(true)
  expect(snippet.text.endsWith('…')).toBe(true)
  expect(snippet.marks.map(([s, e]) => snippet.text.slice(s, e))).toEqual(['lake'])
})

describe('the search cursor', () => {
  const hit = { created_at: '2026-11-20T10:00:00.123456Z', id: '01a22224-2f78-7299-813b-67a15932d799' }
  test('reads back what it wrote', () => {
    expect(parseSearchCursor(searchCursorOf(hit))).toEqual(hit)
  })
  test.each(['', 'yesterday', `${hit.created_at}_nope`, `2026-13-45T99:00:00.000Z_${hit.id}`])(
    '%j is not one',
    (text) => {
      expect(parseSearchCursor(text)).toBeNull()
    },
  )
  test('SearchQuery trims q, defaults limit and refuses a bad before', () => {
    expect(SearchQuery.parse({ q: ' lake ' })).toEqual({ q: 'lake', before: undefined, limit: 20 })
    expect(SearchQuery.safeParse({ q: 'lake', before: 'x' }).success).toBe(false)
  })
})
