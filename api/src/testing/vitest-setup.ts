/**
 * The API tests' setup. Every test runs with the root-database guard of db/write-scope.ts (on in every
 * environment), and fails if any call was refused during it, even one the code caught and logged or
 * a push turned into a rejection. Passwords are hashed with argon2id at its smallest cost, so the thousands of
 * sign-ups and sign-ins of the suite do not each spend 20 ms of CPU. Verification is the real one
 * (it reads the cost from the hash), and `lib/passwords.test.ts` holds the production cost to
 * OWASP's minimum. Server processes the tests start (crash, restart, two-process tests) are not
 * affected.
 */

import { afterEach, vi } from 'vitest'
import { keepRefusals, takeRefusals } from '../db/write-scope.ts'

keepRefusals()
afterEach(() => {
  const refused = takeRefusals()
  if (refused.length > 0) throw new Error(`The root database was used inside an open write:\n${refused.join('\n')}`)
})

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>()
  return {
    ...argon2,
    hash: (password: string, options?: Parameters<typeof argon2.hash>[1]) =>
      argon2.hash(password, { ...options, memoryCost: 64, timeCost: 1 }),
  }
})
