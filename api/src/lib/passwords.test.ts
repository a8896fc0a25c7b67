import { hash } from '@node-rs/argon2'
import { expect, test, vi } from 'vitest'
import { PASSWORD_HASH_OPTIONS, verifyPassword } from './passwords.ts'

test('passwords are hashed with argon2id at OWASP’s minimum cost: 19 MiB, 2 passes, 1 lane', () => {
  expect(PASSWORD_HASH_OPTIONS).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 })
})

test('a hash made at the production cost verifies, and a wrong password or no hash does not', async () => {
  const { hash: realHash } = await vi.importActual<typeof import('@node-rs/argon2')>('@node-rs/argon2')
  const stored = await realHash('Correct-Horse-9', PASSWORD_HASH_OPTIONS)
  expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  expect(await verifyPassword(stored, 'Correct-Horse-9')).toBe(true)
  expect(await verifyPassword(stored, 'Correct-Horse-8')).toBe(false)
  expect(await verifyPassword(null, 'Correct-Horse-9')).toBe(false)
})

test('the tests’ own hashing is cheap but still argon2id (api/src/testing/vitest-setup.ts)', async () => {
  expect(await hash('x', PASSWORD_HASH_OPTIONS)).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/)
})
