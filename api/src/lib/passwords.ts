/** argon2id hashing; a failed lookup still pays for one verification so timing reveals nothing. */

import { hash, verify } from '@node-rs/argon2'

/** OWASP's argon2id minimum (19 MiB, 2 passes). Tests hash cheaper (api/src/testing/vitest-setup.ts). */
export const PASSWORD_HASH_OPTIONS = {
  // 2 = Argon2id (a const enum, which isolated modules cannot import).
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

export const hashPassword = (password: string): Promise<string> => hash(password, PASSWORD_HASH_OPTIONS)

let dummyHash: Promise<string> | undefined

/** Verifies `password` against `stored`; with no stored hash it burns the same time and answers false. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('dummy-password-for-timing-0A')
    await verify(await dummyHash, password).catch(() => false)
    return false
  }
  return verify(stored, password).catch(() => false)
}
