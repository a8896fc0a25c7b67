import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import {
  AdminPassword,
  ChangePasswordBody,
  Email,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  UpdateProfileBody,
  UserName,
} from './auth.ts'
import { PASSWORD_MESSAGES } from './password.ts'

const STRONG = 'Correct-Horse-9'

/** The messages of a failed parse, first problem first; an empty list when the value passes. */
const problems = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value)
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}
const firstProblem = (schema: z.ZodType, value: unknown) => problems(schema, value)[0]

describe('Email', () => {
  test('trims and lower-cases the address', () => {
    expect(Email.parse('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com')
  })

  test.each([
    [undefined, 'Email is required'],
    [null, 'Email is required'],
    [42, 'Email is required'],
    ['', 'Email is required'],
    ['    ', 'Email is required'],
    ['ada', 'Please enter a valid email address'],
    ['ada@localhost', 'Please enter a valid email address'],
    ['ada lovelace@example.com', 'Please enter a valid email address'],
    ['a@b@example.com', 'Please enter a valid email address'],
    [`${'a'.repeat(243)}@example.com`, 'Please enter a valid email address'],
  ])('refuses %j with "%s"', (value, message) => {
    expect(firstProblem(Email, value)).toBe(message)
  })

  test('accepts an address of exactly 254 characters', () => {
    const address = `${'a'.repeat(242)}@example.com`
    expect(address).toHaveLength(254)
    expect(Email.parse(address)).toBe(address)
  })
})

describe('UserName', () => {
  test('trims the name', () => {
    expect(UserName.parse('  Ada Lovelace  ')).toBe('Ada Lovelace')
  })

  test('accepts 2 and 80 characters', () => {
    expect(UserName.parse('Al')).toBe('Al')
    expect(UserName.parse('x'.repeat(80))).toHaveLength(80)
  })

  test.each([
    [undefined, 'Name is required'],
    ['', 'Name must be at least 2 characters'],
    ['A', 'Name must be at least 2 characters'],
    ['  A  ', 'Name must be at least 2 characters'],
    ['x'.repeat(81), 'Name must be at most 80 characters'],
  ])('refuses %j with "%s"', (value, message) => {
    expect(firstProblem(UserName, value)).toBe(message)
  })

  test.each([
    ['Ada\nLovelace', 'a line feed'],
    ['Ada\rLovelace', 'a carriage return'],
    ['Ada\tLovelace', 'a tab'],
    ['Ada\u0000', 'NUL'],
    ['Ada\u007f', 'DEL'],
    ['Ada\u0085Lovelace', 'a C1 control'],
    ['evil\u202egnp.exe', 'a right-to-left override'],
    ['Ada\u2066Lovelace', 'a bidi isolate'],
  ])('refuses %j (%s) as a control character', (value) => {
    expect(firstProblem(UserName, value)).toBe('Name must not contain control characters')
  })

  test('accepts letters from any script, and emoji', () => {
    expect(UserName.parse('Zoë Ångström')).toBe('Zoë Ångström')
    expect(UserName.parse('李小龙')).toBe('李小龙')
    expect(UserName.parse('Ada 👩‍💻')).toBe('Ada 👩‍💻')
  })
})

describe('UpdateProfileBody', () => {
  test('accepts any subset of name, bio and avatar_url, trimming name and bio', () => {
    expect(UpdateProfileBody.parse({})).toEqual({})
    expect(
      UpdateProfileBody.parse({ name: ' Ada ', bio: '  Counting.  ', avatar_url: '/api/uploads/secure/avatar_x.webp' }),
    ).toEqual({ name: 'Ada', bio: 'Counting.', avatar_url: '/api/uploads/secure/avatar_x.webp' })
    expect(UpdateProfileBody.parse({ bio: null, avatar_url: null })).toEqual({ bio: null, avatar_url: null })
  })

  test('refuses an email, naming it as something that cannot be changed', () => {
    expect(problems(UpdateProfileBody, { email: 'new@example.com' })).toEqual(['email cannot be changed'])
    expect(problems(UpdateProfileBody, { name: 'Ada', email: 'new@example.com' })).toEqual(['email cannot be changed'])
  })

  test('refuses any other unknown key, such as role', () => {
    expect(firstProblem(UpdateProfileBody, { role: 'admin' })).toBe('role cannot be changed')
  })

  test('refuses an avatar that is not an uploaded image', () => {
    for (const avatar_url of ['https://evil.example/a.png', 'javascript:alert(1)', '/api/uploads/avatar', '']) {
      expect(firstProblem(UpdateProfileBody, { avatar_url })).toBe('Avatar must be an uploaded image')
    }
  })

  test('refuses a bio over 500 characters and a bad name', () => {
    expect(UpdateProfileBody.parse({ bio: 'x'.repeat(500) }).bio).toHaveLength(500)
    expect(firstProblem(UpdateProfileBody, { bio: 'x'.repeat(501) })).toBe('Bio must be at most 500 characters')
    expect(firstProblem(UpdateProfileBody, { name: 'A' })).toBe('Name must be at least 2 characters')
  })
})

describe('RegisterBody', () => {
  test('a good body is normalised', () => {
    expect(RegisterBody.parse({ name: ' Ada ', email: ' ADA@Example.com', password: STRONG })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: STRONG,
    })
  })

  test('an empty body names every missing field, name first', () => {
    expect(problems(RegisterBody, {})).toEqual(['Name is required', 'Email is required', 'Password is required'])
  })

  test.each([
    [{ name: 'A', email: 'nope', password: 'x' }, 'Name must be at least 2 characters'],
    [{ name: 'Ada', email: 'nope', password: 'x' }, 'Please enter a valid email address'],
    [{ name: 'Ada', email: 'ada@example.com', password: 'x' }, PASSWORD_MESSAGES.min6],
    [{ name: 'Ada', email: 'ada@example.com', password: 'abcdefg' }, PASSWORD_MESSAGES.min12],
    [{ name: 'Ada', email: 'ada@example.com', password: `A1${'b'.repeat(30)}` }, PASSWORD_MESSAGES.max31],
    [{ name: 'Ada', email: 'ada@example.com', password: 'abcdefghijk1' }, PASSWORD_MESSAGES.upper],
    [{ name: 'Ada', email: 'ada@example.com', password: 'ABCDEFGHIJK1' }, PASSWORD_MESSAGES.lower],
    [{ name: 'Ada', email: 'ada@example.com', password: 'Abcdefghijkl' }, PASSWORD_MESSAGES.digit],
  ])('the first problem of %j is "%s"', (body, message) => {
    expect(firstProblem(RegisterBody, body)).toBe(message)
  })

  test('the password problem is reported on the password path', () => {
    const result = RegisterBody.safeParse({ name: 'Ada', email: 'ada@example.com', password: 'short' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['password']])
  })
})

describe('the other password bodies', () => {
  test('login needs a password but not a strong one', () => {
    expect(LoginBody.parse({ email: 'ADA@example.com', password: 'x' })).toEqual({
      email: 'ada@example.com',
      password: 'x',
    })
    expect(firstProblem(LoginBody, { email: 'ada@example.com' })).toBe('Password is required')
    expect(firstProblem(LoginBody, { email: 'ada@example.com', password: '' })).toBe('Password is required')
  })

  test('reset and change apply the strong rule to the new password', () => {
    expect(firstProblem(ResetPasswordBody, { token: 't', newPassword: 'abcdefg' })).toBe(PASSWORD_MESSAGES.min12)
    expect(firstProblem(ResetPasswordBody, { token: '  ', newPassword: STRONG })).toBe('Token is required')
    expect(firstProblem(ChangePasswordBody, { currentPassword: 'old', newPassword: 'abcdefghijk1' })).toBe(
      PASSWORD_MESSAGES.upper,
    )
    expect(firstProblem(ChangePasswordBody, { newPassword: STRONG })).toBe('Current password is required')
  })

  test('an admin-set password only needs 6 characters', () => {
    expect(AdminPassword.parse('abcdef')).toBe('abcdef')
    expect(firstProblem(AdminPassword, 'abcde')).toBe(PASSWORD_MESSAGES.min6)
  })
})
