import { describe, expect, test } from 'vitest'
import {
  BUBLE_MESSAGES,
  BubleName,
  ClientId,
  CreateBubleBody,
  InviteCode,
  isUuid,
  normalizeInviteCode,
} from './bubles.ts'

/** The first problem's message, as the API would answer it. */
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message

describe('BubleName', () => {
  test.each([
    ['Book Club', 'Book Club'],
    ['  Book Club  ', 'Book Club'],
    ['\tBook Club\n', 'Book Club'],
    ['Book Club Göteborg', 'Book Club Göteborg'],
    ['読書会 🎉', '読書会 🎉'],
    ['Ab', 'Ab'],
    ['\u200bBook\u00ad Club\ufeff', 'Book Club'],
  ])('accepts %j as %j', (input, expected) => {
    expect(BubleName.parse(input)).toBe(expected)
  })

  test.each([
    ['an empty string', ''],
    ['spaces', '    '],
    ['whitespace of every kind', ' \t\r\n\u00a0\u2003 '],
  ])('refuses %s with "Buble name is required"', (_what, input) => {
    const result = BubleName.safeParse(input)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe('Buble name is required')
  })

  test.each([
    ['one letter', 'A'],
    ['one letter among invisible ones', '\u2060A\u200b\u00ad'],
    ['one emoji', '🎉'],
  ])('refuses %s with "Buble name must be at least 2 characters" (issue 18)', (_what, input) => {
    const result = BubleName.safeParse(input)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe('Buble name must be at least 2 characters')
  })

  test('a name of nothing visible is refused as missing', () => {
    expect(firstMessage(BubleName.safeParse('\u200b\u2060\ufeff'))).toBe('Buble name is required')
  })

  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object', { name: 'Book Club' }],
  ])('refuses %s with "Buble name is required"', (_what, input) => {
    const result = BubleName.safeParse(input)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe('Buble name is required')
  })

  test('accepts 80 characters, also with spaces around them, and refuses 81', () => {
    const eighty = 'n'.repeat(80)
    expect(BubleName.parse(eighty)).toBe(eighty)
    expect(BubleName.parse(`   ${eighty}   `)).toBe(eighty)
    const result = BubleName.safeParse(`${eighty}n`)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe(BUBLE_MESSAGES.nameTooLong)
  })

  test.each([
    ['a line feed', 'Book\nClub'],
    ['a carriage return', 'Book\rClub'],
    ['a CR LF pair', 'Book\r\nClub'],
    ['a tab', 'Book\tClub'],
    ['a NUL', 'Book\u0000Club'],
    ['an escape', 'Book\u001bClub'],
    ['a DEL', 'Book\u007fClub'],
    ['a C1 control', 'Book\u0085Club'],
    ['a left-to-right mark', 'Book\u200eClub'],
    ['a right-to-left mark', 'Book\u200fClub'],
    ['a right-to-left override', 'Book\u202eClub'],
    ['a left-to-right embedding', 'Book\u202aClub'],
    ['a first-strong isolate', 'Book\u2068Club'],
    ['a pop directional isolate', 'Book\u2069Club'],
    ['a trailing C1 control that trimming keeps', 'Book Club\u0085'],
  ])('refuses a name containing %s', (_what, input) => {
    const result = BubleName.safeParse(input)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe(BUBLE_MESSAGES.nameControl)
  })
})

describe('CreateBubleBody', () => {
  test('takes a name alone, trimmed, and leaves the id out', () => {
    expect(CreateBubleBody.parse({ name: ' Chess Night ' })).toEqual({ name: 'Chess Night' })
  })

  test('keeps a client-chosen UUID id', () => {
    const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'
    expect(CreateBubleBody.parse({ id, name: 'Chess Night' })).toEqual({ id, name: 'Chess Night' })
  })

  test('drops fields it does not know', () => {
    expect(CreateBubleBody.parse({ name: 'Chess Night', owner_id: 'someone-else', slug: 'x' })).toEqual({
      name: 'Chess Night',
    })
  })

  test.each([
    ['a word', 'offline-1'],
    ['a UUID without dashes', '0190a1b2c3d47e5f8a9b0c1d2e3f4a5b'],
    ['a UUID with braces', '{0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b}'],
    ['an empty string', ''],
    ['a number', 7],
  ])('refuses an id that is %s, naming the id', (_what, id) => {
    const result = CreateBubleBody.safeParse({ id, name: 'Chess Night' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['id'])
    expect(firstMessage(result)).toBe('id must be a UUID')
  })

  test('a missing name is refused with "Buble name is required" at the name', () => {
    const result = CreateBubleBody.safeParse({})
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['name'])
    expect(firstMessage(result)).toBe('Buble name is required')
  })
})

describe('normalizeInviteCode', () => {
  test.each([
    ['ABCD2345', 'ABCD2345'],
    ['abcd2345', 'ABCD2345'],
    ['  AbCd2345  ', 'ABCD2345'],
    ['ABCD-2345', 'ABCD2345'],
    ['abcd - 2345', 'ABCD2345'],
    ['AB-CD--23-45', 'ABCD2345'],
    ['ab cd\t23\n45', 'ABCD2345'],
    ['-ABCD2345-', 'ABCD2345'],
    ['', ''],
    [' - ', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeInviteCode(input)).toBe(expected)
  })

  test('is idempotent', () => {
    for (const code of ['ab-cd 23-45', ' xyz ', 'Q7-R8']) {
      expect(normalizeInviteCode(normalizeInviteCode(code))).toBe(normalizeInviteCode(code))
    }
  })
})

describe('InviteCode', () => {
  test('answers the normalised code', () => {
    expect(InviteCode.parse(' abcd-2345 ')).toBe('ABCD2345')
    expect(InviteCode.parse('HJKMNPQRST')).toBe('HJKMNPQRST')
  })

  test.each([
    ['an empty string', ''],
    ['only spaces', '   '],
    ['only dashes and spaces', ' -- - '],
    ['undefined', undefined],
    ['a number', 12345678],
  ])('refuses %s with "Invite code is required"', (_what, input) => {
    const result = InviteCode.safeParse(input)
    expect(result.success).toBe(false)
    expect(firstMessage(result)).toBe(BUBLE_MESSAGES.codeRequired)
  })

  test("a code of any length passes: one that does not exist is the server's 410, like any unknown code", () => {
    expect(InviteCode.parse('a'.repeat(100))).toBe('A'.repeat(100))
    // Separators do not count towards the length.
    expect(InviteCode.parse(`${'A'.repeat(32)}-${'B'.repeat(32)}`)).toHaveLength(64)
  })
})

describe('ClientId', () => {
  test('a UUID in any case is read as its lower-case form', () => {
    expect(ClientId.parse('0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B')).toBe('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')
  })
})

describe('isUuid', () => {
  test.each([
    '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    '00000000-0000-0000-0000-000000000000',
  ])('%j is a UUID', (value) => {
    expect(isUuid(value)).toBe(true)
  })

  test.each([
    '',
    'book-club',
    'book-club-goteborg',
    '0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
    '{0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b}',
    ' 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b\n',
    '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5',
    '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5bc',
    'g190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    '0190a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b',
  ])('%j is not a UUID', (value) => {
    expect(isUuid(value)).toBe(false)
  })
})
