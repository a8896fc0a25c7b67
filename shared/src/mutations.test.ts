import { describe, expect, test } from 'vitest'
import {
  BUBLE_MUTATIONS,
  CHAT_MUTATIONS,
  EVENT_MUTATIONS,
  isMutationName,
  MUTATION_ARGS,
  MUTATION_NAMES,
  MUTE_MUTATIONS,
  PIN_MUTATIONS,
  POLL_MUTATIONS,
  PROFILE_MUTATIONS,
  REPORT_MUTATIONS,
  UNREAD_MUTATIONS,
  WALL_MUTATIONS,
} from './mutations.ts'

describe('mutation names', () => {
  test("the contract's 24 names come first, then the other buble writes, then pins, mutes and reports; each is entity.verb", () => {
    expect(MUTATION_NAMES).toHaveLength(35)
    expect(MUTATION_NAMES.slice(29, 31)).toEqual(['post.pin', 'post.unpin'])
    expect(MUTATION_NAMES.slice(31, 33)).toEqual(['member.mute', 'member.unmute'])
    expect(MUTATION_NAMES.slice(33)).toEqual(['report.create', 'report.resolve'])
    expect(MUTATION_NAMES.slice(24, 29)).toEqual([
      'buble.delete',
      'buble.leave',
      'invite.create',
      'invite.accept',
      'invite.revoke',
    ])
    for (const name of MUTATION_NAMES) expect(name).toMatch(/^[a-z]+\.[a-z]+$/)
  })

  test('every handled mutation is a known name', () => {
    for (const name of Object.keys(MUTATION_ARGS)) expect(isMutationName(name)).toBe(true)
  })

  test('buble.create needs the id the device chose, and trims the name', () => {
    const id = '0192b3c4-d5e6-7f80-9123-456789abcdef'
    expect(MUTATION_ARGS['buble.create'].parse({ id, name: '  Book club ' })).toEqual({ id, name: 'Book club' })
    expect(MUTATION_ARGS['buble.create'].safeParse({ name: 'Book club' }).success).toBe(false)
    expect(MUTATION_ARGS['buble.create'].safeParse({ id, name: '   ' }).success).toBe(false)
  })

  test('invite.revoke names the buble and reads the code as typed codes are read', () => {
    const id = '0192B3C4-D5E6-7F80-9123-456789ABCDEF'
    expect(MUTATION_ARGS['invite.revoke'].parse({ buble_id: id, code: ' k7m2-pq9x rt ' })).toEqual({
      buble_id: id.toLowerCase(),
      code: 'K7M2PQ9XRT',
    })
    expect(MUTATION_ARGS['invite.revoke'].safeParse({ buble_id: id }).success).toBe(false)
    expect(MUTATION_ARGS['invite.revoke'].safeParse({ buble_id: 'not-a-uuid', code: 'K7M2PQ9XRT' }).success).toBe(false)
  })

  test.each([
    ['post.create', true],
    ['unread.read', true],
    ['post.explode', false],
    ['', false],
  ])('isMutationName(%j) is %s', (name, known) => {
    expect(isMutationName(name)).toBe(known)
  })
})

describe('feature groups', () => {
  const groups = [
    BUBLE_MUTATIONS,
    WALL_MUTATIONS,
    EVENT_MUTATIONS,
    POLL_MUTATIONS,
    CHAT_MUTATIONS,
    UNREAD_MUTATIONS,
    PROFILE_MUTATIONS,
    PIN_MUTATIONS,
    MUTE_MUTATIONS,
    REPORT_MUTATIONS,
  ]

  test('each mutation belongs to exactly one group, and the groups together are the catalogue', () => {
    const grouped = groups.flatMap((group) => Object.keys(group))
    expect(new Set(grouped).size).toBe(grouped.length)
    expect([...grouped].sort()).toEqual([...MUTATION_NAMES].sort())
  })

  test("the catalogue's schema for a name is its group's", () => {
    for (const group of groups)
      for (const [name, schema] of Object.entries(group))
        expect(MUTATION_ARGS[name as keyof typeof MUTATION_ARGS]).toBe(schema)
  })
})
