import { describe, expect, test } from 'vitest'
import { AddPasskeyBody, canRemoveSignInMethod, PASSKEY_MESSAGES, PasskeyName, type SignInMethods } from './passkeys.ts'

describe('canRemoveSignInMethod', () => {
  const methods = (hasPassword: boolean, passkeys: number): SignInMethods => ({ hasPassword, passkeys })
  test.each([
    // removing the password
    ['password', 'a password and no passkey', methods(true, 0), false],
    ['password', 'a password and one passkey', methods(true, 1), true],
    ['password', 'a password and two passkeys', methods(true, 2), true],
    ['password', 'no password and one passkey', methods(false, 1), false],
    ['password', 'no password and no passkey', methods(false, 0), false],
    // removing one passkey
    ['passkey', 'a password and one passkey', methods(true, 1), true],
    ['passkey', 'no password and one passkey', methods(false, 1), false],
    ['passkey', 'no password and two passkeys', methods(false, 2), true],
    ['passkey', 'a password and two passkeys', methods(true, 2), true],
    ['passkey', 'a password and no passkey', methods(true, 0), false],
    ['passkey', 'no password and no passkey', methods(false, 0), false],
  ] as const)('removing the %s of an account with %s → %s', (removing, _who, held, allowed) => {
    expect(canRemoveSignInMethod(held, removing)).toBe(allowed)
  })
})

describe('PasskeyName', () => {
  test.each([
    ['  Phone  ', 'Phone'],
    ['Laptop\u200b', 'Laptop'],
    ['x'.repeat(60), 'x'.repeat(60)],
  ])('accepts %j as %j', (input, name) => {
    expect(PasskeyName.parse(input)).toBe(name)
  })

  test.each([
    ['', PASSKEY_MESSAGES.nameRequired],
    ['   ', PASSKEY_MESSAGES.nameRequired],
    ['x'.repeat(61), PASSKEY_MESSAGES.nameTooLong],
    ['a\u0007b', PASSKEY_MESSAGES.nameControl],
  ])('refuses %j with "%s"', (input, message) => {
    const result = PasskeyName.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(message)
  })
})

test('a registration answer must be base64url and of type public-key', () => {
  const response = { clientDataJSON: 'abc', attestationObject: 'def', transports: ['internal'] }
  const ok = AddPasskeyBody.safeParse({
    name: 'Phone',
    response: { id: 'AQ', rawId: 'AQ', type: 'public-key', response },
  })
  expect(ok.success).toBe(true)
  expect(ok.data?.response.clientExtensionResults).toEqual({})
  const padded = { id: 'AQ==', rawId: 'AQ', type: 'public-key', response }
  expect(AddPasskeyBody.safeParse({ name: 'Phone', response: padded }).success).toBe(false)
  const otherType = { id: 'AQ', rawId: 'AQ', type: 'password', response }
  expect(AddPasskeyBody.safeParse({ name: 'Phone', response: otherType }).success).toBe(false)
})
