/** Rules for names, e-mail addresses and display helpers shared by server and client. */

import { LIMITS } from './constants.ts'

/** Trim and lower-case an e-mail address, as the server stores it. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** One `@`, a non-empty local part, a dotted domain, no spaces, at most 254 characters. */
export function isEmailLike(email: string): boolean {
  if (email.length === 0 || email.length > LIMITS.email || /[\s\p{Cc}]/u.test(email) || hasUnsafeText(email))
    return false
  const parts = email.split('@')
  if (parts.length !== 2) return false
  const [local, domain] = parts as [string, string]
  if (local.length === 0) return false
  const labels = domain.split('.')
  return labels.length >= 2 && labels.every((label) => label.length > 0)
}

// ---- The one rule for every text that reaches the database --------------------------------------

// NUL: PostgreSQL's text and jsonb cannot hold it. A lone surrogate is no character at all: UTF-8
// cannot encode it, so PostgreSQL refuses it (and JSON from elsewhere may carry one as \udXXX).
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** True when `text` holds NUL or an unpaired surrogate: no field, id, path or query may (400, never 500). */
export const hasUnsafeText = (text: string): boolean => UNSAFE_TEXT.test(text)

/** The message of a refused text, naming where it was ('content', 'args.name', the address). */
export const unsafeTextMessage = (where: string): string =>
  `${where} contains a character that is not allowed (NUL or an unpaired surrogate)`

const MAX_PATH = 16

/** The first place in a JSON value (keys included) holding unsafe text, as a validation issue; null when none. */
export function findUnsafeText(value: unknown): { path: (string | number)[]; message: string } | null {
  // A stack of frames linked to their parents, not recursion nor copied paths: a body nested
  // thousands deep must be a quick 400, not a stack overflow or a quadratic walk.
  type Frame = { value: unknown; key: string | number | null; parent: Frame | null }
  const pathOf = (frame: Frame | null) => {
    const path: (string | number)[] = []
    for (let f = frame; f && f.key !== null; f = f.parent) path.push(f.key)
    path.reverse()
    // An answer names the place, it does not echo a path thousands long.
    return path.length > MAX_PATH ? [...path.slice(0, MAX_PATH), '…'] : path
  }
  const issue = (path: (string | number)[], what: string) => ({
    path,
    message: unsafeTextMessage(path.length > 0 ? path.join('.') : what),
  })
  const stack: Frame[] = [{ value, key: null, parent: null }]
  while (stack.length > 0) {
    const frame = stack.pop()!
    const current = frame.value
    if (typeof current === 'string') {
      if (hasUnsafeText(current)) return issue(pathOf(frame), 'The text')
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: frame })
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!
        if (hasUnsafeText(key)) return issue(pathOf(frame), 'A field name')
        stack.push({ value: item, key, parent: frame })
      }
    }
  }
  return null
}

/** A mutation name as the protocol spells them (`entity.verb`): what may be echoed back or logged. */
export const isMutationNameText = (name: string): boolean => /^[a-z][a-z_]{0,31}(\.[a-z][a-z_]{0,31}){1,2}$/.test(name)

/** A client id as devices send it: a UUID, or another short token of plain characters. */
export const isClientIdText = (id: string): boolean => /^[A-Za-z0-9._:-]{1,128}$/.test(id)

/** The years both PostgreSQL 15 and 18 store in a timestamp, with room on either side of any real date. */
export const STORABLE_YEARS = { min: 1, max: 9999 } as const

/** True when the instant `ms` (epoch milliseconds) falls in a year the database stores (in UTC). */
export function isStorableInstant(ms: number): boolean {
  if (!Number.isFinite(ms)) return false
  const year = new Date(ms).getUTCFullYear()
  return year >= STORABLE_YEARS.min && year <= STORABLE_YEARS.max
}

// ---- Names -------------------------------------------------------------------------------------

// Characters that show nothing: soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
// and Khmer fillers, Mongolian vowel separator and selectors, zero-width space, line and paragraph
// separators, word joiner and invisible operators, deprecated format controls, the byte order mark,
// the Braille blank and the tag characters.
const INVISIBLE =
  /\u034f|\u17b4|\u17b5|\u180b|\u180c|\u180d|\u180f|[\u00ad\u061c\u115f\u1160\u180e\u200b\u2028\u2029\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/gu
// Zero-width joiner and non-joiner shape what is on both sides (an emoji sequence, Persian words):
// kept there, dropped anywhere else.
const STRAY_JOINER = /(?<![^\s\u200c\u200d])[\u200c\u200d]+|[\u200c\u200d]+(?![^\s\u200c\u200d])/gu
// A visible grapheme has a letter, digit, punctuation mark or symbol in it.
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u

/** A name without the characters that show nothing (zero-width ones, fillers, tags); not trimmed. */
export const stripInvisible = (name: string): string => name.replace(INVISIBLE, '').replace(STRAY_JOINER, '')

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** How many characters of `text` a reader sees (graphemes holding a letter, digit, mark of punctuation or symbol). */
export function visibleLength(text: string): number {
  let count = 0
  for (const { segment } of graphemes.segment(stripInvisible(text))) if (VISIBLE.test(segment)) count++
  return count
}

/** The fewest visible characters a name (a user's, a buble's) may have. */
export const MIN_VISIBLE_NAME = 2

// C0/C1 controls (CR, LF, tab…) and the bidi overrides/isolates that can disguise a name.
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** True when a name holds a control character or a bidi override. */
export const hasControlCharacters = (text: string): boolean => FORBIDDEN_IN_NAMES.test(text)

/** Up to two initials: first letters of the first and last words, upper-cased. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return '?'
  const first = [...(words[0] as string)][0] ?? ''
  const last = words.length > 1 ? ([...(words[words.length - 1] as string)][0] ?? '') : ''
  return (first + last).toUpperCase()
}

/** White initials sit on these: each is at least 4.5:1 against white (WCAG AA, checked by a test). */
export const AVATAR_COLOURS = [
  '#e11d48',
  '#db2777',
  '#c026d3',
  '#9333ea',
  '#7c3aed',
  '#4f46e5',
  '#2563eb',
  '#075985',
  '#0e7490',
  '#115e59',
  '#047857',
  '#166534',
  '#4d7c0f',
  '#854d0e',
  '#b45309',
  '#9a3412',
  '#dc2626',
  '#be123c',
  '#a21caf',
  '#6d28d9',
  '#1d4ed8',
  '#0369a1',
  '#0f766e',
  '#15803d',
  '#a16207',
  '#c2410c',
] as const

/** The background colour of an initials avatar, chosen by the name's first letter. */
export function avatarColour(name: string): string {
  const letter = name.trim().charAt(0).toUpperCase()
  const index = letter >= 'A' && letter <= 'Z' ? letter.charCodeAt(0) - 65 : 0
  return AVATAR_COLOURS[index % AVATAR_COLOURS.length] as string
}
