/**
 * Search in one buble (issue 23 §2, decision 95): the query of `GET /api/bubles/:id/search`, the
 * hits it answers, and the pure pieces both sides use: the page cursor, and a snippet as plain
 * text with the matching words as offsets (never markup, so no content can inject any).
 */

import { z } from 'zod'
import type { MemberRef } from './bubles.ts'

export const SEARCH_PAGE_SIZE = 20
export const SEARCH_MAX_PAGE_SIZE = 50
export const SEARCH_MAX_QUERY = 200

export const SEARCH_KINDS = ['post', 'comment', 'chat', 'event', 'poll'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

export const SEARCH_MESSAGES = {
  queryRequired: 'q is required',
  queryTooLong: `q may be at most ${SEARCH_MAX_QUERY} characters`,
  badCursor: 'before must be a cursor of an earlier answer',
} as const

/**
 * A hit's place in the newest-first order: its time to the microsecond, as the database keeps it,
 * and its id (ties broken by id, so pages never skip or repeat).
 */
export interface SearchCursor {
  created_at: string
  id: string
}

const CURSOR_PATTERN =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

/** The `before` of the page after the one ending with `hit`. */
export const searchCursorOf = (hit: SearchCursor): string => `${hit.created_at}_${hit.id}`

/** A `before` read back; null when it is not one this API made. */
export function parseSearchCursor(text: string): SearchCursor | null {
  const match = CURSOR_PATTERN.exec(text)
  if (!match || Number.isNaN(Date.parse(match[1]!))) return null
  return { created_at: match[1]!, id: match[2]! }
}

/** `q` (words; "quoted phrases", `or` and `-word` as a web search reads them), `before` and `limit`. */
export const SearchQuery = z.object({
  q: z
    .string({ error: SEARCH_MESSAGES.queryRequired })
    .trim()
    .min(1, { error: SEARCH_MESSAGES.queryRequired })
    .max(SEARCH_MAX_QUERY, { error: SEARCH_MESSAGES.queryTooLong }),
  before: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return undefined
      const cursor = parseSearchCursor(text)
      if (!cursor) ctx.addIssue({ code: 'custom', message: SEARCH_MESSAGES.badCursor })
      return cursor ?? undefined
    }),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_PAGE_SIZE).default(SEARCH_PAGE_SIZE),
})
export type SearchQuery = z.output<typeof SearchQuery>

/** Where the matching words are in a snippet: [start, end) offsets in UTF-16 units, in order, not overlapping. */
export type SearchMarks = [start: number, end: number][]

/** A text with its marked words; rendered as text, each mark in a `<mark>` element the client makes. */
export interface SearchSnippet {
  text: string
  marks: SearchMarks
}

/**
 * One hit. `post_id` is the post a comment is on (null for other kinds), so the wall can open it in
 * place; `id` is the item's own id (the chat message to scroll to, the event, the poll).
 */
export interface SearchHit {
  kind: SearchKind
  id: string
  buble_id: string
  post_id: string | null
  snippet: SearchSnippet
  author: MemberRef
  created_at: string
}

/** `GET /api/bubles/:id/search`: a page newest first; `before` asks the next one (null at the end). */
export interface SearchPage {
  results: SearchHit[]
  hasMore: boolean
  before: string | null
}

/**
 * A text with its marked parts delimited by `open` and `close` (what PostgreSQL's ts_headline makes
 * with markers no content holds) as plain text and offsets.
 */
export function snippetFromMarked(marked: string, open: string, close: string): SearchSnippet {
  let text = ''
  const marks: SearchMarks = []
  let rest = marked
  while (rest.length > 0) {
    const start = rest.indexOf(open)
    if (start < 0) break
    const end = rest.indexOf(close, start + open.length)
    if (end < 0) break
    text += rest.slice(0, start)
    const word = rest.slice(start + open.length, end)
    const previous = marks[marks.length - 1]
    // Adjacent marks ("book club") read as one.
    if (previous && previous[1] === text.length) previous[1] += word.length
    else marks.push([text.length, text.length + word.length])
    text += word
    rest = rest.slice(end + close.length)
  }
  text += rest.split(open).join('').split(close).join('')
  return { text, marks: marks.filter(([s, e]) => e > s) }
}

/** The words of a query as the device matches them: lower-cased letters and digits, at least one character. */
export function searchWords(query: string): string[] {
  const words = query.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)]
}

/**
 * The device's search of one text: whether every word of `words` begins a word of `text` (so
 * "run" finds "running", "book club" finds "Book Club"), and where each one is.
 */
export function matchText(text: string, words: readonly string[]): SearchMarks | null {
  if (words.length === 0) return null
  const lower = text.toLocaleLowerCase()
  // toLocaleLowerCase keeps lengths for the scripts we meet; when it does not, offsets would drift.
  if (lower.length !== text.length) return null
  const marks: SearchMarks = []
  for (const word of words) {
    let found = false
    for (const token of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
      if (token[0].startsWith(word)) {
        marks.push([token.index, token.index + word.length])
        found = true
      }
    }
    if (!found) return null
  }
  marks.sort((a, b) => a[0] - b[0])
  const merged: SearchMarks = []
  for (const mark of marks) {
    const last = merged[merged.length - 1]
    if (last && mark[0] <= last[1]) last[1] = Math.max(last[1], mark[1])
    else merged.push([mark[0], mark[1]])
  }
  return merged
}

/**
 * A window of `text` around its first mark, at most `size` characters, with the marks moved into it
 * (an ellipsis where text was cut).
 */
export function snippetAround(text: string, marks: SearchMarks, size = 160): SearchSnippet {
  if (text.length <= size) return { text, marks }
  const first = marks[0]?.[0] ?? 0
  const start = Math.max(0, Math.min(first - Math.floor(size / 4), text.length - size))
  const end = Math.min(text.length, start + size)
  const lead = start > 0 ? '…' : ''
  const shift = lead.length - start
  const kept = marks
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]): [number, number] => [s + shift, e + shift])
  return { text: `${lead}${text.slice(start, end)}${end < text.length ? '…' : ''}`, marks: kept }
}
