import { describe, expect, test } from 'vitest'
import {
  AVATAR_COLOURS,
  avatarColour,
  findUnsafeText,
  hasControlCharacters,
  hasUnsafeText,
  initials,
  isClientIdText,
  isEmailLike,
  isMutationNameText,
  isStorableInstant,
  normalizeEmail,
  stripInvisible,
  visibleLength,
} from './text.ts'

const addressOfLength = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`

describe('isEmailLike', () => {
  test.each([
    'ada@example.com',
    'ada.lovelace+buble@mail.example.co.uk',
    'a@b.c',
    'ADA@EXAMPLE.COM',
    "o'brien@example.ie",
  ])('accepts %j', (email) => {
    expect(isEmailLike(email)).toBe(true)
  })

  test.each([
    ['', 'empty'],
    ['ada.example.com', 'no @'],
    ['ada@@example.com', 'two @'],
    ['ada@home@example.com', 'two @ apart'],
    ['@example.com', 'an empty local part'],
    ['ada@', 'an empty domain'],
    ['ada@localhost', 'a domain without a dot'],
    ['ada@example.', 'a domain ending in a dot'],
    ['ada@.com', 'a domain starting with a dot'],
    ['ada@exa..mple.com', 'an empty label inside the domain'],
    ['ada lovelace@example.com', 'a space in the local part'],
    ['ada@exa mple.com', 'a space in the domain'],
    [' ada@example.com', 'a leading space'],
    ['ada@example.com\t', 'a trailing tab'],
    ['ada@example.com\n', 'a trailing newline'],
  ])('refuses %j (%s)', (email) => {
    expect(isEmailLike(email)).toBe(false)
  })

  test('accepts up to 254 characters and refuses 255', () => {
    expect(addressOfLength(254)).toHaveLength(254)
    expect(isEmailLike(addressOfLength(254))).toBe(true)
    expect(isEmailLike(addressOfLength(255))).toBe(false)
  })
})

describe('normalizeEmail', () => {
  test('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com')
  })

  test('leaves an already normal address unchanged', () => {
    expect(normalizeEmail('ada@example.com')).toBe('ada@example.com')
  })

  test('an address of spaces becomes empty', () => {
    expect(normalizeEmail('   ')).toBe('')
  })
})

describe('hasControlCharacters', () => {
  test.each([
    ['\r', 'carriage return'],
    ['\n', 'line feed'],
    ['\t', 'tab'],
    ['\u0000', 'NUL'],
    ['\u001b', 'escape'],
    ['\u001f', 'unit separator'],
    ['\u007f', 'DEL'],
    ['\u0080', 'the first C1 control'],
    ['\u0085', 'next line (C1)'],
    ['\u009f', 'the last C1 control'],
    ['\u200e', 'left-to-right mark'],
    ['\u200f', 'right-to-left mark'],
    ['\u202a', 'left-to-right embedding'],
    ['\u202d', 'left-to-right override'],
    ['\u202e', 'right-to-left override'],
    ['\u2066', 'left-to-right isolate'],
    ['\u2067', 'right-to-left isolate'],
    ['\u2068', 'first strong isolate'],
    ['\u2069', 'pop directional isolate'],
  ])('finds %j (%s) inside a name', (char) => {
    expect(hasControlCharacters(`Ada${char}Lovelace`)).toBe(true)
    expect(hasControlCharacters(char)).toBe(true)
  })

  test.each([
    'Ada Lovelace',
    'Zoë Ångström-Łukasz',
    '李小龙',
    'محمد',
    'Ada 👩‍💻',
    'Family 👨‍👩‍👧',
    "D'Arcy O'Neil",
    '',
  ])('passes the ordinary name %j', (name) => {
    expect(hasControlCharacters(name)).toBe(false)
  })
})

describe('initials', () => {
  test.each([
    ['Ada Lovelace', 'AL'],
    ['ada lovelace', 'AL'],
    ['Ada', 'A'],
    ['Ada King Lovelace', 'AL'],
    ['Ada Augusta King Lovelace', 'AL'],
    ['   Ada    Lovelace   ', 'AL'],
    ['Ada\tLovelace', 'AL'],
    ['élodie Ørsted', 'ÉØ'],
    ['😀 Smile', '😀S'],
    ['Ada 🚀', 'A🚀'],
    ['', '?'],
    ['    ', '?'],
  ])('%j gives %j', (name, expected) => {
    expect(initials(name)).toBe(expected)
  })

  test('never gives more than two letters', () => {
    for (const name of ['A B C D E', 'Jean-Luc Picard Of The Enterprise', 'one two three']) {
      expect([...initials(name)].length).toBeLessThanOrEqual(2)
    }
  })

  test('keeps an emoji whole instead of splitting its surrogate pair', () => {
    const result = initials('🦄 Unicorn')
    expect([...result]).toEqual(['🦄', 'U'])
  })
})

describe('avatarColour', () => {
  const HEX = /^#[0-9a-f]{6}$/

  test('is the same for names sharing a first letter, whatever its case or leading space', () => {
    expect(avatarColour('Ada')).toBe(avatarColour('alan'))
    expect(avatarColour('Ada')).toBe(avatarColour('  Anna'))
    expect(avatarColour('Zed')).toBe(avatarColour('zoe'))
  })

  test('is stable across calls', () => {
    expect(avatarColour('Grace Hopper')).toBe(avatarColour('Grace Hopper'))
  })

  test('spreads the alphabet over many colours', () => {
    const colours = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((letter) => avatarColour(letter)))
    for (const colour of colours) expect(colour).toMatch(HEX)
    expect(colours.size).toBeGreaterThanOrEqual(8)
    expect(avatarColour('Ada')).not.toBe(avatarColour('Bob'))
  })

  /** WCAG 2 relative luminance of a #rrggbb colour. */
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }

  test.each([...AVATAR_COLOURS])('white initials on %s read at 4.5:1 or more (WCAG AA)', (colour) => {
    expect((1 + 0.05) / (luminance(colour) + 0.05)).toBeGreaterThanOrEqual(4.5)
  })

  test('no two letters share a colour', () => {
    expect(new Set(AVATAR_COLOURS).size).toBe(AVATAR_COLOURS.length)
  })

  test.each(['', '   ', '1337', '😀 Smile', 'Émile', '李小龙', '_underscore'])(
    'gives a colour for the non-letter or non-ASCII start %j',
    (name) => {
      expect(avatarColour(name)).toMatch(HEX)
      expect(avatarColour(name)).toBe(avatarColour(name))
    },
  )
})

describe('the one text rule (issue 18)', () => {
  test.each([
    ['plain text', 'Midsummer at the lake', false],
    ['an emoji (a surrogate pair)', 'Skål 🥂', false],
    ['a NUL', 'a\u0000b', true],
    ['a high surrogate alone', 'x\ud83d', true],
    ['a low surrogate alone', '\ude00x', true],
    ['two high surrogates', '\ud83d\ud83d\ude00', true],
    ['a pair the wrong way round', '\ude00\ud83d', true],
  ])('%s: unsafe %s', (_what, text, unsafe) => {
    expect(hasUnsafeText(text)).toBe(unsafe)
  })

  test('finds the first unsafe string or key of a JSON value, with its path', () => {
    expect(findUnsafeText({ a: [1, 'ok', { b: 'x\u0000' }] })).toEqual({
      path: ['a', 2, 'b'],
      message: 'a.2.b contains a character that is not allowed (NUL or an unpaired surrogate)',
    })
    expect(findUnsafeText({ 'k\ud800': 1 })?.message).toBe(
      'A field name contains a character that is not allowed (NUL or an unpaired surrogate)',
    )
    expect(findUnsafeText({ a: ['fine', { b: 1, c: null, d: true }] })).toBeNull()
    // Deep nesting is walked without recursion: a 400, never a stack overflow.
    let deep: unknown = 'x\u0000'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const found = findUnsafeText(deep)
    expect(found?.path).toHaveLength(17)
    expect(found?.message).toBe(
      `${'0.'.repeat(16)}… contains a character that is not allowed (NUL or an unpaired surrogate)`,
    )
  })

  test.each([
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59Z', true],
    ['0000-01-01T00:00:00Z', false],
    ['9999-12-31T23:59:59-14:00', false],
    ['+010000-01-01T00:00:00Z', false],
  ])('%s falls in the years the databases store: %s', (iso, storable) => {
    expect(isStorableInstant(Date.parse(iso))).toBe(storable)
  })

  test('mutation names and client ids are plain', () => {
    expect(isMutationNameText('post.create')).toBe(true)
    expect(isMutationNameText('post.\u0000create')).toBe(false)
    expect(isMutationNameText('Post.Create')).toBe(false)
    expect(isClientIdText('0190f3c2-7d4e-7b1a-9c3e-1a2b3c4d5e6f')).toBe(true)
    expect(isClientIdText('tab-1')).toBe(true)
    expect(isClientIdText('a b')).toBe(false)
    expect(isClientIdText('x'.repeat(129))).toBe(false)
  })

  test('an address with a NUL or a control character is no address', () => {
    expect(isEmailLike('ada\u0000@example.com')).toBe(false)
    expect(isEmailLike('ada\u0007@example.com')).toBe(false)
  })
})

describe('names of nothing visible (issue 18)', () => {
  test.each([
    ['zero-width spaces, word joiners, BOM, soft hyphens', '\u200bA\u2060n\ufeffn\u00ad', 'Ann'],
    ['line and paragraph separators', 'Ann\u2028\u2029', 'Ann'],
    ['Hangul fillers and the Braille blank', '\u3164Ann\u2800', 'Ann'],
    ['tag characters', 'Ann\u{e0041}\u{e007f}', 'Ann'],
    ['a joiner at the edge', '\u200dAnn\u200c', 'Ann'],
    ['a joiner inside an emoji, kept', '👩\u200d💻 Ann', '👩\u200d💻 Ann'],
    ['a non-joiner inside a Persian word, kept', 'می\u200cخواهم', 'می\u200cخواهم'],
  ])('drops %s', (_what, name, cleaned) => {
    expect(stripInvisible(name)).toBe(cleaned)
  })

  test.each([
    ['Ann', 3],
    ['A\u200b', 1],
    ['\u3164\u3164', 0],
    ['👩\u200d💻', 1],
    ['e\u0301', 1],
    ['読書', 2],
  ])('%j shows %i characters', (name, count) => {
    expect(visibleLength(name)).toBe(count)
  })
})
