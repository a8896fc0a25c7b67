import { describe, expect, test } from 'vitest'
import { adminPasswordProblem, newPasswordProblem, PASSWORD_MESSAGES, strongPasswordProblem } from './password.ts'

describe('strongPasswordProblem', () => {
  test.each([
    ['', PASSWORD_MESSAGES.min6],
    ['Ab1', PASSWORD_MESSAGES.min6],
    ['Ab1cd', PASSWORD_MESSAGES.min6],
    ['Ab1cde', PASSWORD_MESSAGES.min12],
    ['Ab1cdefghij', PASSWORD_MESSAGES.min12],
    ['abcdefghijk1', PASSWORD_MESSAGES.upper],
    ['ABCDEFGHIJK1', PASSWORD_MESSAGES.lower],
    ['Abcdefghijkl', PASSWORD_MESSAGES.digit],
    [`Ab1${'c'.repeat(29)}`, PASSWORD_MESSAGES.max31],
  ])('refuses %j with "%s"', (password, message) => {
    expect(strongPasswordProblem(password)).toBe(message)
  })

  test.each([
    ['Abcdefghijk1', 12],
    [`Ab1${'c'.repeat(28)}`, 31],
    ['Correct-Horse-9', 15],
    ['ÄbcdéfghijK1', 12],
  ])('accepts %j (%i characters)', (password, length) => {
    expect(password).toHaveLength(length)
    expect(strongPasswordProblem(password)).toBeNull()
  })

  test('the length limits sit exactly at 6, 12 and 32 characters', () => {
    const ofLength = (n: number) => `Ab1${'c'.repeat(n - 3)}`
    expect(strongPasswordProblem(ofLength(5))).toBe(PASSWORD_MESSAGES.min6)
    expect(strongPasswordProblem(ofLength(6))).toBe(PASSWORD_MESSAGES.min12)
    expect(strongPasswordProblem(ofLength(11))).toBe(PASSWORD_MESSAGES.min12)
    expect(strongPasswordProblem(ofLength(12))).toBeNull()
    expect(strongPasswordProblem(ofLength(31))).toBeNull()
    expect(strongPasswordProblem(ofLength(32))).toBe(PASSWORD_MESSAGES.max31)
  })

  test('the first failing rule wins when several fail', () => {
    // Too short and missing everything: the 6-character rule comes first.
    expect(strongPasswordProblem('aaa')).toBe(PASSWORD_MESSAGES.min6)
    // Long enough for 6 but no upper case and no digit: the 12-character rule comes first.
    expect(strongPasswordProblem('abcdefg')).toBe(PASSWORD_MESSAGES.min12)
    // Too long and no upper case, lower case or digit: length first.
    expect(strongPasswordProblem('-'.repeat(40))).toBe(PASSWORD_MESSAGES.max31)
    // No upper, no lower, no digit: upper case first.
    expect(strongPasswordProblem('------------')).toBe(PASSWORD_MESSAGES.upper)
    // No lower and no digit: lower case before digit.
    expect(strongPasswordProblem('ABCDEFGHIJKL')).toBe(PASSWORD_MESSAGES.lower)
  })

  test('the messages are the exact texts of the spec', () => {
    expect(PASSWORD_MESSAGES).toEqual({
      min6: 'Password must be at least 6 characters',
      min12: 'Password must be at least 12 characters long',
      max31: 'Password must be less than 32 characters long',
      upper: 'Password must contain at least one uppercase letter',
      lower: 'Password must contain at least one lowercase letter',
      digit: 'Password must contain at least one number',
      mismatch: 'Passwords do not match',
    })
  })
})

describe('adminPasswordProblem', () => {
  test.each([
    ['', PASSWORD_MESSAGES.min6],
    ['abcde', PASSWORD_MESSAGES.min6],
  ])('refuses %j with the 6-character rule', (password, message) => {
    expect(adminPasswordProblem(password)).toBe(message)
  })

  test.each(['abcdef', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '123456', 'ABCDEF'])(
    'accepts %j, since only the 6-character minimum applies',
    (password) => {
      expect(adminPasswordProblem(password)).toBeNull()
    },
  )
})

describe('newPasswordProblem', () => {
  test('a matching strong pair has no problem', () => {
    expect(newPasswordProblem('Correct-Horse-9', 'Correct-Horse-9')).toBeNull()
  })

  test('a mismatch is reported', () => {
    expect(newPasswordProblem('Correct-Horse-9', 'Correct-Horse-8')).toBe(PASSWORD_MESSAGES.mismatch)
  })

  test('pairs differing only in letter case are a mismatch', () => {
    expect(newPasswordProblem('Correct-Horse-9', 'correct-horse-9')).toBe(PASSWORD_MESSAGES.mismatch)
    expect(newPasswordProblem('Correct-Horse-9', 'CORRECT-HORSE-9')).toBe(PASSWORD_MESSAGES.mismatch)
  })

  test('the mismatch is reported before any strength rule', () => {
    expect(newPasswordProblem('abc', 'abd')).toBe(PASSWORD_MESSAGES.mismatch)
    expect(newPasswordProblem('', 'x')).toBe(PASSWORD_MESSAGES.mismatch)
    expect(newPasswordProblem('abcdefghijkl', 'ABCDEFGHIJKL')).toBe(PASSWORD_MESSAGES.mismatch)
  })

  test('a matching pair then gets the first strength rule it fails', () => {
    expect(newPasswordProblem('abc', 'abc')).toBe(PASSWORD_MESSAGES.min6)
    expect(newPasswordProblem('abcdefg', 'abcdefg')).toBe(PASSWORD_MESSAGES.min12)
    expect(newPasswordProblem('abcdefghijk1', 'abcdefghijk1')).toBe(PASSWORD_MESSAGES.upper)
    expect(newPasswordProblem('Abcdefghijkl', 'Abcdefghijkl')).toBe(PASSWORD_MESSAGES.digit)
  })
})
