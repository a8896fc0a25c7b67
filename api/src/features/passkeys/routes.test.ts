import { generateKeyPairSync } from 'node:crypto'
import { PASSKEY_CHALLENGE_TTL_MS, PASSKEY_MESSAGES } from '@buble/shared/passkeys'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { passkeys, users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, PASSWORD, PUBLIC_URL } from '../../testing/harness.ts'
import { createSoftwareAuthenticator, type Overrides } from '../../testing/software-authenticator.ts'

const ORIGIN = PUBLIC_URL
const RP_ID = new URL(PUBLIC_URL).hostname
const OTHER_ORIGIN = 'http://localhost:5173'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

describe.each(backends())('passkeys on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off', CORS_ORIGINS: OTHER_ORIGIN })
  })
  afterAll(() => h?.close())

  let authenticator: ReturnType<typeof createSoftwareAuthenticator>
  beforeEach(() => {
    authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID })
  })

  const registrationOptions = async (token: string, origin = ORIGIN) => {
    const res = await h.call('POST', '/api/users/passkeys/registration-options', { token, headers: { origin } })
    expect(res.status).toBe(200)
    return res.json()
  }

  /** Adds a passkey through the two calls, answering as the authenticator (with `o` changed). */
  const addPasskey = async (token: string, name = 'Phone', o: Overrides = {}) => {
    const options = await registrationOptions(token, o.origin)
    const response = authenticator.register(options, o)
    return { res: await h.call('POST', '/api/users/passkeys', { token, body: { name, response } }), response }
  }

  const added = async (token: string, name = 'Phone') => {
    const { res, response } = await addPasskey(token, name)
    expect(res.status).toBe(201)
    return { passkey: await res.json(), credentialId: response.id }
  }

  const signInOptions = async (origin?: string) => {
    const res = await h.call('POST', '/api/auth/passkeys/options', origin ? { headers: { origin } } : {})
    expect(res.status).toBe(200)
    return res.json()
  }

  const signIn = (response: unknown) => h.call('POST', '/api/auth/passkeys/login', { body: { response } })

  const list = async (token: string) => (await h.call('GET', '/api/users/passkeys', { token })).json()

  test('a member adds a passkey, which is listed by its name with no use yet', async () => {
    const { token } = await h.register()
    const options = await registrationOptions(token)
    expect(options.rp).toEqual({ name: 'Buble', id: RP_ID })
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' })
    const response = authenticator.register(options)
    const res = await h.call('POST', '/api/users/passkeys', { token, body: { name: '  My phone ', response } })
    expect(res.status).toBe(201)
    const passkey = await res.json()
    expect(passkey).toMatchObject({
      name: 'My phone',
      device_type: 'singleDevice',
      backed_up: false,
      last_used_at: null,
    })
    expect(await list(token)).toEqual({ passkeys: [passkey], has_password: true })
    // The next options exclude it: the browser won't make a second one on the same authenticator.
    expect((await registrationOptions(token)).excludeCredentials).toEqual([
      { id: response.id, type: 'public-key', transports: ['internal'] },
    ])
  })

  test('signing in with a passkey answers exactly as a password sign-in, and counts the use', async () => {
    const { token, id, email } = await h.register()
    const { credentialId } = await added(token)
    const options = await signInOptions()
    expect(options.rpId).toBe(RP_ID)
    expect(options.allowCredentials).toBeUndefined()
    const res = await h.call('POST', '/api/auth/passkeys/login', {
      body: { response: authenticator.authenticate(options, credentialId) },
      headers: { 'user-agent': IPHONE },
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    // Like a password sign-in, it opens a session of its own (decision 103), listed as this device.
    const sessions = await (await h.call('GET', '/api/users/sessions', { token: body.access_token })).json()
    expect(sessions.find((s: { current: boolean }) => s.current)).toMatchObject({
      device: 'iPhone',
      browser: 'Safari',
    })
    const byPassword = await (await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).json()
    expect(Object.keys(body).sort()).toEqual(Object.keys(byPassword).sort())
    expect(body.user).toEqual(byPassword.user)
    expect(body.user.id).toBe(id)
    // The token works.
    expect((await h.call('GET', '/api/users/profile', { token: body.access_token })).status).toBe(200)
    const [row] = await h.database.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId))
    expect(row!.counter).toBe(1)
    expect(row!.lastUsedAt?.toISOString()).toBe(h.clock.now.toISOString())
    expect((await list(token)).passkeys[0].last_used_at).toBe(h.clock.now.toISOString())
  })

  test('each sign-in moves the counter on; an answer with a counter gone back is refused', async () => {
    const { token } = await h.register()
    const { credentialId } = await added(token)
    expect((await signIn(authenticator.authenticate(await signInOptions(), credentialId, { counter: 7 }))).status).toBe(
      200,
    )
    const [row] = await h.database.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId))
    expect(row!.counter).toBe(7)
    const cloned = await signIn(authenticator.authenticate(await signInOptions(), credentialId, { counter: 5 }))
    expect(cloned.status).toBe(401)
    expect(await cloned.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: PASSKEY_MESSAGES.notRecognised })
  })

  test('the relying party is the host of the operator origin that asked; another origin falls back to PUBLIC_URL', async () => {
    const { token } = await h.register()
    const local = createSoftwareAuthenticator({ origin: OTHER_ORIGIN, rpId: 'localhost' })
    const options = await registrationOptions(token, OTHER_ORIGIN)
    expect(options.rp.id).toBe('localhost')
    const res = await h.call('POST', '/api/users/passkeys', {
      token,
      body: { name: 'Dev', response: local.register(options) },
    })
    expect(res.status).toBe(201)
    expect((await signInOptions('https://evil.example')).rpId).toBe(RP_ID)
    const signInAt = await signInOptions(OTHER_ORIGIN)
    expect(signInAt.rpId).toBe('localhost')
    const credentialId = [...local.credentials.keys()][0]!
    expect((await signIn(local.authenticate(signInAt, credentialId))).status).toBe(200)
  })

  describe('refused answers', () => {
    test.each<[string, Overrides]>([
      ['from another origin', { origin: 'https://evil.example' }],
      ['for another relying party', { rpId: 'evil.example' }],
      ['of the wrong ceremony', { type: 'webauthn.get' }],
      ['without user verification', { userVerified: false }],
    ])('a registration answer %s adds nothing (400)', async (_what, overrides) => {
      const { token } = await h.register()
      const { res } = await addPasskey(token, 'Phone', overrides)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ code: 'VALIDATION_ERROR', message: PASSKEY_MESSAGES.notVerified })
      expect((await list(token)).passkeys).toEqual([])
    })

    test('a registration answer to a challenge never handed out is refused as expired (410)', async () => {
      const { token } = await h.register()
      const { res } = await addPasskey(token, 'Phone', { challenge: 'bm90LWEtY2hhbGxlbmdl' })
      expect(res.status).toBe(410)
      expect((await res.json()).message).toBe(PASSKEY_MESSAGES.expired)
    })

    test("another member's registration challenge is not this member's", async () => {
      const { token } = await h.register()
      const other = await h.register()
      const options = await registrationOptions(other.token)
      const response = authenticator.register(options)
      const res = await h.call('POST', '/api/users/passkeys', { token, body: { name: 'Phone', response } })
      expect(res.status).toBe(410)
    })

    test.each<[string, Overrides]>([
      ['from another origin', { origin: 'https://evil.example' }],
      ['for another relying party', { rpId: 'evil.example' }],
      ['of the wrong ceremony', { type: 'webauthn.create' }],
      ['without user verification', { userVerified: false }],
      ['signed by another key', { signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }],
    ])('a sign-in answer %s is not recognised (401)', async (_what, overrides) => {
      const { token } = await h.register()
      const { credentialId } = await added(token)
      const res = await signIn(authenticator.authenticate(await signInOptions(), credentialId, overrides))
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: PASSKEY_MESSAGES.notRecognised })
    })

    test('a sign-in answer to a challenge never handed out, or expired, is refused (410)', async () => {
      const { token } = await h.register()
      const { credentialId } = await added(token)
      const made = await signIn(authenticator.authenticate({ challenge: 'bWFkZS11cA' }, credentialId))
      expect(made.status).toBe(410)
      expect((await made.json()).message).toBe(PASSKEY_MESSAGES.expired)
      const options = await signInOptions()
      h.clock.advance(PASSKEY_CHALLENGE_TTL_MS + 1)
      expect((await signIn(authenticator.authenticate(options, credentialId))).status).toBe(410)
    })

    test('a challenge answers once: the same answer again, or a second one, is refused', async () => {
      const { token } = await h.register()
      const { credentialId } = await added(token)
      const options = await signInOptions()
      const answer = authenticator.authenticate(options, credentialId)
      expect((await signIn(answer)).status).toBe(200)
      expect((await signIn(answer)).status).toBe(410)
      expect((await signIn(authenticator.authenticate(options, credentialId))).status).toBe(410)
      // A registration challenge is no sign-in challenge either.
      const registration = await registrationOptions(token)
      expect((await signIn(authenticator.authenticate(registration, credentialId))).status).toBe(410)
    })

    test("a credential is its owner's only: another member's user handle, an unknown credential, a removed account", async () => {
      const ada = await h.register()
      const bob = await h.register()
      const { credentialId } = await added(ada.token)
      const bobHandle = Buffer.from(bob.id).toString('base64url')
      const claimed = await signIn(
        authenticator.authenticate(await signInOptions(), credentialId, { userHandle: bobHandle }),
      )
      expect(claimed.status).toBe(401)
      // A credential Buble never stored.
      const stranger = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID })
      const unknown = stranger.register({ challenge: 'eA', user: { id: bobHandle } })
      expect((await signIn(stranger.authenticate(await signInOptions(), unknown.id))).status).toBe(401)
      // A credential Buble holds for Ada cannot be added by Bob: it stays hers.
      const bobs = authenticator.register(await registrationOptions(bob.token))
      await h.database.db.update(passkeys).set({ credentialId: bobs.id }).where(eq(passkeys.credentialId, credentialId))
      const taken = await h.call('POST', '/api/users/passkeys', {
        token: bob.token,
        body: { name: 'Mine', response: bobs },
      })
      expect(taken.status).toBe(409)
      expect((await taken.json()).message).toBe(PASSKEY_MESSAGES.alreadyAdded)
      expect((await list(bob.token)).passkeys).toEqual([])
      // A deleted account's passkey signs nobody in.
      const carl = await h.register()
      const carls = await added(carl.token)
      await h.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, carl.id))
      expect((await signIn(authenticator.authenticate(await signInOptions(), carls.credentialId))).status).toBe(401)
    })
  })

  describe('managing passkeys', () => {
    test('rename: a new name, trimmed; an empty name is refused; another member’s passkey is 404', async () => {
      const { token } = await h.register()
      const other = await h.register()
      const { passkey } = await added(token)
      const res = await h.call('PATCH', `/api/users/passkeys/${passkey.id}`, { token, body: { name: ' Work laptop ' } })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ ...passkey, name: 'Work laptop' })
      const empty = await h.call('PATCH', `/api/users/passkeys/${passkey.id}`, { token, body: { name: '  ' } })
      expect(empty.status).toBe(400)
      expect((await empty.json()).message).toBe(PASSKEY_MESSAGES.nameRequired)
      const theirs = await h.call('PATCH', `/api/users/passkeys/${passkey.id}`, {
        token: other.token,
        body: { name: 'Mine' },
      })
      expect(theirs.status).toBe(404)
      expect(await theirs.json()).toEqual({ code: 'NOT_FOUND', message: PASSKEY_MESSAGES.notFound })
      expect((await h.call('PATCH', '/api/users/passkeys/not-an-id', { token, body: { name: 'x' } })).status).toBe(404)
      expect((await list(token)).passkeys.map((p: { name: string }) => p.name)).toEqual(['Work laptop'])
    })

    test('remove: with a password left, the only passkey goes; another member’s is 404', async () => {
      const { token } = await h.register()
      const other = await h.register()
      const { passkey } = await added(token)
      expect((await h.call('DELETE', `/api/users/passkeys/${passkey.id}`, { token: other.token })).status).toBe(404)
      const res = await h.call('DELETE', `/api/users/passkeys/${passkey.id}`, { token })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ message: PASSKEY_MESSAGES.removed })
      expect((await list(token)).passkeys).toEqual([])
      expect((await h.call('DELETE', `/api/users/passkeys/${passkey.id}`, { token })).status).toBe(404)
    })

    test('the password goes only with the right password and a passkey held; then the last passkey stays', async () => {
      const { token, email } = await h.register()
      const removePassword = (currentPassword: string) =>
        h.call('POST', '/api/users/remove-password', { token, body: { currentPassword } })
      const alone = await removePassword(PASSWORD)
      expect(alone.status).toBe(409)
      expect((await alone.json()).message).toBe(PASSKEY_MESSAGES.passwordIsLast)
      const first = await added(token, 'Phone')
      const second = await added(token, 'Laptop')
      const wrong = await removePassword('Wrong-password-1')
      expect(wrong.status).toBe(400)
      expect(await wrong.json()).toEqual({ code: 'INVALID_PASSWORD', message: 'Current password is incorrect' })
      const removed = await removePassword(PASSWORD)
      expect(removed.status).toBe(200)
      expect(await removed.json()).toEqual({ message: PASSKEY_MESSAGES.passwordRemoved })
      // The session goes on; the list says there is no password any more.
      expect(await list(token)).toMatchObject({ has_password: false })
      const twice = await removePassword(PASSWORD)
      expect(twice.status).toBe(409)
      expect((await twice.json()).message).toBe(PASSKEY_MESSAGES.noPassword)
      // Two passkeys: one may go, the last may not.
      expect((await h.call('DELETE', `/api/users/passkeys/${first.passkey.id}`, { token })).status).toBe(200)
      const last = await h.call('DELETE', `/api/users/passkeys/${second.passkey.id}`, { token })
      expect(last.status).toBe(409)
      expect(await last.json()).toEqual({ code: 'CONFLICT', message: PASSKEY_MESSAGES.lastPasskey })
      // A password sign-in answers the ordinary wrong-credentials error.
      const byPassword = await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })
      expect(byPassword.status).toBe(401)
      expect(await byPassword.json()).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid email or password',
      })
      // Changing a password one does not have: the ordinary wrong-password answer (the profile offers a reset).
      const change = await h.call('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: PASSWORD, newPassword: 'Another-Horse-8' },
      })
      expect(change.status).toBe(400)
      expect((await change.json()).code).toBe('INVALID_PASSWORD')
      // The passkey still signs in.
      expect((await signIn(authenticator.authenticate(await signInOptions(), second.credentialId))).status).toBe(200)
    })

    test('a member with only passkeys sets a password again by a reset e-mail', async () => {
      const { token, email } = await h.register()
      const { credentialId } = await added(token)
      expect(
        (await h.call('POST', '/api/users/remove-password', { token, body: { currentPassword: PASSWORD } })).status,
      ).toBe(200)
      const before = h.smtp.mails.length
      expect((await h.call('POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(200)
      const link = h.smtp.linkIn(await h.smtp.waitFor(email, { after: before }), `${PUBLIC_URL}/reset-password`)
      const resetToken = new URL(link).searchParams.get('token')!
      const newPassword = 'Fresh-Horse-77'
      const reset = await h.call('POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword } })
      expect(reset.status).toBe(200)
      const login = await h.call('POST', '/api/auth/login', { body: { email, password: newPassword } })
      expect(login.status).toBe(200)
      const fresh = (await login.json()).access_token
      expect(await list(fresh)).toMatchObject({ has_password: true, passkeys: [{ name: 'Phone' }] })
      // The passkey still works too; and now it may be removed, the password being left.
      expect((await signIn(authenticator.authenticate(await signInOptions(), credentialId))).status).toBe(200)
    })

    test('deleting an account removes its passkeys, which then sign nobody in', async () => {
      const { token, id } = await h.register()
      const { credentialId } = await added(token)
      await h.services.users.adminDeleteAccount(id)
      expect(await h.database.db.select().from(passkeys).where(eq(passkeys.userId, id))).toEqual([])
      expect((await signIn(authenticator.authenticate(await signInOptions(), credentialId))).status).toBe(401)
    })

    test('every member route needs a token (401); the sign-in routes do not', async () => {
      const routes: [string, string][] = [
        ['GET', '/api/users/passkeys'],
        ['POST', '/api/users/passkeys/registration-options'],
        ['POST', '/api/users/passkeys'],
        ['PATCH', '/api/users/passkeys/0190a5b2-7c2e-7000-8000-000000000000'],
        ['DELETE', '/api/users/passkeys/0190a5b2-7c2e-7000-8000-000000000000'],
        ['POST', '/api/users/remove-password'],
      ]
      for (const [method, path] of routes) {
        const res = await h.call(method, path, method === 'GET' ? {} : { body: {} })
        expect(res.status, `${method} ${path}`).toBe(401)
      }
      expect((await h.call('POST', '/api/auth/passkeys/options')).status).toBe(200)
      expect((await h.call('POST', '/api/auth/passkeys/login', { body: {} })).status).toBe(400)
    })
  })
})

describe('passkey sign-in limits', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness('pglite')
  })
  afterAll(() => h?.close())

  test('failed passkey sign-ins count against the IP as failed password sign-ins do', async () => {
    const stranger = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const unknown = stranger.register({ challenge: 'eA', user: { id: 'eA' } })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const options = await (await h.call('POST', '/api/auth/passkeys/options')).json()
      const res = await h.call('POST', '/api/auth/passkeys/login', {
        body: { response: stranger.authenticate(options, unknown.id) },
      })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
  })
})
