import { SESSION_ENDED_MESSAGE, SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { users } from '../db/schema.ts'
import { backends } from '../testing/databases.ts'
import { createHarness, type Harness, PASSWORD } from '../testing/harness.ts'
import { createAuthenticator } from './auth.ts'

/** Each request's account read afresh, the requests of one turn in one query (auth.ts). */
describe.each(backends())('authentication on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const outcome = (attempt: Promise<{ user: { id: string; name: string } }>) =>
    attempt.then(
      ({ user }) => ({ id: user.id, name: user.name }),
      (err: Error) => err.message,
    )
  const login = async (email: string) => {
    const res = await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })
    return ((await res.json()) as { access_token: string }).access_token
  }

  test('one turn of requests reads its accounts and their sessions in one query, and each gets its own answer', async () => {
    const [ann, bob, revoked, gone, ended] = await Promise.all(
      ['Ann', 'Bob', 'Revoked', 'Gone', 'Ended'].map((name) => h.register({ name })),
    )
    // Ann signed in on a second device too; Ended's session was signed out.
    const annElsewhere = await login(ann!.email)
    await h.deps.db.execute(sql`update users set token_version = token_version + 1 where id = ${revoked!.id}`)
    await h.deps.db.execute(sql`delete from users where id = ${gone!.id}`)
    await h.deps.db.execute(sql`delete from sessions where user_id = ${ended!.id}`)
    const forged = await h.deps.tokens.sign({ id: '00000000-0000-4000-8000-00000000beef', tokenVersion: 0 })
    // A token older than sessions (no sid) still holds until it expires (decision 103).
    const [bobRow] = await h.deps.db.select().from(users).where(eq(users.id, bob!.id))
    const bobOld = await h.deps.tokens.sign(bobRow!)

    const authenticate = createAuthenticator(h.deps.db, h.deps.tokens)
    const bearer = (token: string) => `Bearer ${token}`
    // Warm: the statement is prepared and each token's signature known, so the turn below is the reads alone.
    await Promise.all(
      [ann!.token, annElsewhere, bob!.token, bobOld, revoked!.token, gone!.token, ended!.token, forged].map((token) =>
        authenticate(bearer(token)).catch(() => null),
      ),
    )

    const client = (h.deps.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client
    const queries = vi.spyOn(client, 'query')
    try {
      const answers = await Promise.all([
        outcome(authenticate(bearer(ann!.token))),
        outcome(authenticate(bearer(bob!.token))),
        outcome(authenticate(bearer(ann!.token))),
        outcome(authenticate(bearer(annElsewhere))),
        outcome(authenticate(bearer(bobOld))),
        outcome(authenticate(bearer(revoked!.token))),
        outcome(authenticate(bearer(gone!.token))),
        outcome(authenticate(bearer(ended!.token))),
        outcome(authenticate(bearer(forged))),
      ])
      expect(answers).toEqual([
        { id: ann!.id, name: 'Ann' },
        { id: bob!.id, name: 'Bob' },
        { id: ann!.id, name: 'Ann' },
        { id: ann!.id, name: 'Ann' },
        { id: bob!.id, name: 'Bob' },
        SESSION_REVOKED_MESSAGE,
        'Invalid or expired token',
        SESSION_ENDED_MESSAGE,
        'Invalid or expired token',
      ])
      expect(queries).toHaveBeenCalledTimes(1)
    } finally {
      queries.mockRestore()
    }
  })

  test('a change to the account counts from the next request: never remembered between turns', async () => {
    const carol = await h.register({ name: 'Carol' })
    const authenticate = createAuthenticator(h.deps.db, h.deps.tokens)
    expect(await outcome(authenticate(`Bearer ${carol.token}`))).toEqual({ id: carol.id, name: 'Carol' })
    await h.deps.db.execute(sql`update users set name = 'Caroline' where id = ${carol.id}`)
    expect(await outcome(authenticate(`Bearer ${carol.token}`))).toEqual({ id: carol.id, name: 'Caroline' })
    await h.deps.db.execute(sql`update users set status = 'deleted' where id = ${carol.id}`)
    expect(await outcome(authenticate(`Bearer ${carol.token}`))).toBe('Invalid or expired token')
  })

  test('a malformed header or token is refused without reading any account', async () => {
    const authenticate = createAuthenticator(h.deps.db, h.deps.tokens)
    const client = (h.deps.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client
    const queries = vi.spyOn(client, 'query')
    try {
      expect(await outcome(authenticate(undefined))).toBe('Authentication required')
      expect(await outcome(authenticate('Basic abc'))).toBe('Authentication required')
      expect(await outcome(authenticate('Bearer not-a-jwt'))).toBe('Invalid or expired token')
      expect(queries).not.toHaveBeenCalled()
    } finally {
      queries.mockRestore()
    }
  })
})
