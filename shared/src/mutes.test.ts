import { describe, expect, test } from 'vitest'
import { MUTATION_ARGS } from './mutations.ts'
import { mutedMessage } from './mute-texts.ts'
import {
  isIndefiniteMute,
  isMutedAt,
  MUTE_DURATIONS,
  MUTED_INDEFINITELY,
  MuteBody,
  mutedUntilFor,
  muteEnd,
} from './mutes.ts'

const NOW = new Date('2026-11-28T15:00:00.000Z')

describe('when a mute ends', () => {
  test.each([
    ['1h', '2026-11-28T16:00:00.000Z'],
    ['1d', '2026-11-29T15:00:00.000Z'],
    ['1w', '2026-12-05T15:00:00.000Z'],
    ['indefinite', null],
  ] as const)('%s from now → %s', (duration, end) => {
    expect(muteEnd(duration, NOW)?.toISOString() ?? null).toBe(end)
  })

  test('"until unmuted" is stored as the far instant, which reads as indefinite', () => {
    expect(mutedUntilFor('indefinite', NOW).toISOString()).toBe(MUTED_INDEFINITELY)
    expect(isIndefiniteMute(MUTED_INDEFINITELY)).toBe(true)
    expect(isIndefiniteMute(mutedUntilFor('1w', NOW))).toBe(false)
  })

  test('a mute is in force while now < muted_until, and never without an end', () => {
    expect(isMutedAt('2026-11-28T15:00:00.001Z', NOW)).toBe(true)
    expect(isMutedAt('2026-11-28T15:00:00.000Z', NOW)).toBe(false)
    expect(isMutedAt(MUTED_INDEFINITELY, NOW)).toBe(true)
    expect(isMutedAt(null, NOW)).toBe(false)
    expect(isMutedAt(undefined, NOW.getTime())).toBe(false)
  })
})

describe('the refusal text', () => {
  test('names the end in Stockholm time, winter and summer', () => {
    expect(mutedMessage('2026-11-28T16:00:00.000Z', NOW)).toBe(
      'You are muted in this buble until Sat 28 Nov, 17:00 CET',
    )
    expect(mutedMessage(new Date('2027-06-01T10:30:00.000Z'), NOW)).toBe(
      'You are muted in this buble until Tue 1 Jun 2027, 12:30 CEST',
    )
  })

  test('a mute without an end says who ends it', () => {
    expect(mutedMessage(MUTED_INDEFINITELY, NOW)).toBe('You are muted in this buble until a moderator unmutes you')
  })
})

describe('the mute body and mutations', () => {
  test('takes the four durations and nothing else', () => {
    for (const duration of MUTE_DURATIONS) expect(MuteBody.parse({ duration })).toEqual({ duration })
    expect(MuteBody.safeParse({ duration: '2h' }).success).toBe(false)
    expect(MuteBody.safeParse({}).success).toBe(false)
  })

  test('member.mute and member.unmute name the buble and the member by UUID', () => {
    const ids = { buble_id: '0193C6A0-0000-7000-8000-000000000001', user_id: '0193c6a0-0000-7000-8000-000000000002' }
    expect(MUTATION_ARGS['member.mute'].parse({ ...ids, duration: '1d' })).toEqual({
      buble_id: ids.buble_id.toLowerCase(),
      user_id: ids.user_id,
      duration: '1d',
    })
    expect(MUTATION_ARGS['member.unmute'].safeParse({ buble_id: 'x', user_id: ids.user_id }).success).toBe(false)
  })
})
