/**
 * The API tests' setup: passwords are hashed with argon2id at its smallest cost, so the thousands of
 * sign-ups and sign-ins of the suite do not each spend 20 ms of CPU. Verification is the real one
 * (it reads the cost from the hash), and `lib/passwords.test.ts` holds the production cost to
 * OWASP's minimum. Server processes the tests start (crash, restart, two-process tests) are not
 * affected.
 */

import { vi } from 'vitest'

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>()
  return {
    ...argon2,
    hash: (password: string, options?: Parameters<typeof argon2.hash>[1]) =>
      argon2.hash(password, { ...options, memoryCost: 64, timeCost: 1 }),
  }
})
