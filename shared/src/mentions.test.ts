import { describe, expect, test } from 'vitest'
import {
  filterMembers,
  hasMentions,
  memberNames,
  mentionedIds,
  mentionQueryAt,
  mentionToken,
  renderMentions,
  splitMentions,
  storeMentions,
} from './mentions.ts'

const ANA = '0190a0b0-0000-7000-8000-000000000001'
const BO = '0190a0b0-0000-7000-8000-000000000002'
const GONE = '0190a0b0-0000-7000-8000-000000000009'
const names = memberNames([
  { id: ANA, name: 'Ana' },
  { id: BO, name: 'Bo Ek' },
])

describe('mention tokens', () => {
  test('a mention is stored as the member id in a token', () => {
    expect(mentionToken(ANA.toUpperCase())).toBe(`<@${ANA}>`)
  })

  test.each([
    ['no token', 'Hello all', []],
    ['one', `Hi <@${ANA}>!`, [ANA]],
    ['two, repeated, any case', `<@${BO}> and <@${ANA.toUpperCase()}> and <@${BO}>`, [BO, ANA]],
    ['not a uuid', '<@ana> <@1234>', []],
    ['an e-mail address', 'write to ana@example.com', []],
  ])('mentionedIds: %s', (_what, text, ids) => {
    expect(mentionedIds(text)).toEqual(ids)
    expect(hasMentions(text)).toBe(ids.length > 0)
  })
})

describe('rendering with the names members have now', () => {
  test('members show as @Name, anyone else as plain @someone', () => {
    expect(renderMentions(`Hi <@${ANA}> and <@${GONE}>, <@${BO}>.`, names)).toBe('Hi @Ana and @someone, @Bo Ek.')
  })

  test('parts mark only members as mentions, and a non-member stays in the plain run', () => {
    expect(splitMentions(`Hi <@${ANA}> and <@${GONE}>!`, names)).toEqual([
      { at: 0, text: 'Hi ' },
      { at: 3, text: '@Ana', userId: ANA },
      { at: 42, text: ' and @someone!' },
    ])
  })

  test('a name change shows at once', () => {
    expect(renderMentions(`<@${ANA}>`, memberNames([{ id: ANA, name: 'Anna' }]))).toBe('@Anna')
  })

  test('a text without tokens is one plain part', () => {
    expect(splitMentions('plain', names)).toEqual([{ at: 0, text: 'plain' }])
    expect(splitMentions('', names)).toEqual([])
  })
})

describe('editing keeps the ids', () => {
  const known = [
    { id: ANA, name: 'Ana' },
    { id: BO, name: 'Bo Ek' },
  ]

  test('readable text goes back to tokens, and round-trips', () => {
    const stored = `Hi <@${ANA}>, <@${BO}>: see you`
    const readable = renderMentions(stored, names)
    expect(readable).toBe('Hi @Ana, @Bo Ek: see you')
    expect(storeMentions(readable, known)).toBe(stored)
  })

  test.each([
    ['a longer word is not the name', '@Anabel is here', '@Anabel is here'],
    ['a name cut short is plain text', '@Bo is here', '@Bo is here'],
    ['an unknown name is plain', '@Cy hi', '@Cy hi'],
    ['a longer name wins', '@Bo Ek!', `<@${BO}>!`],
  ])('storeMentions: %s', (_what, readable, stored) => {
    expect(storeMentions(readable, known)).toBe(stored)
  })

  test('a name with regular-expression characters is matched literally', () => {
    expect(storeMentions('@A.b (c)+ hi @Axb', [{ id: ANA, name: 'A.b (c)+' }])).toBe(`<@${ANA}> hi @Axb`)
  })
})

describe('the query being typed', () => {
  test.each([
    ['@', 1, { start: 0, query: '' }],
    ['hi @an', 6, { start: 3, query: 'an' }],
    ['hi @bo e', 8, { start: 3, query: 'bo e' }],
    ['(@a', 3, { start: 1, query: 'a' }],
    ['mail ana@ex', 11, null],
    ['@ana\nx', 6, null],
    ['hi @an', 2, null],
  ])('mentionQueryAt(%j, %i)', (text, caret, found) => {
    expect(mentionQueryAt(text, caret)).toEqual(found)
  })

  test('members filter by a word start, ignoring case and accents', () => {
    const members = [{ name: 'Åsa Berg' }, { name: 'Bo Ek' }, { name: 'Ana' }]
    expect(filterMembers(members, '')).toEqual(members)
    expect(filterMembers(members, 'asa')).toEqual([{ name: 'Åsa Berg' }])
    expect(filterMembers(members, 'EK')).toEqual([{ name: 'Bo Ek' }])
    expect(filterMembers(members, 'x')).toEqual([])
    expect(filterMembers(members, '', 2)).toHaveLength(2)
    // A name starting with the query comes before one with a later word starting with it.
    expect(filterMembers([{ name: 'Anders Berg' }, { name: 'Bo' }], 'b')).toEqual([
      { name: 'Bo' },
      { name: 'Anders Berg' },
    ])
  })
})
