import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApp } from './app.ts'
import { backends } from './testing/databases.ts'
import {
  createHarness,
  type Harness,
  PASSWORD,
  TEST_JWT_SECRET,
  type TestResponse,
  uniqueEmail,
} from './testing/harness.ts'

const OTHER_SECRET = 'another-secret-that-is-also-32-bytes-long'
const HOUR_S = 60 * 60

/** Reads an error answer, checks it is CONTRACT §2's JSON body without internals, and answers it. */
async function errorBody(res: TestResponse, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const text = await res.text()
  expect(text).not.toMatch(/\bat .+:\d+:\d+/)
  expect(text).not.toMatch(/node_modules|\.ts\b|stack/i)
  const body = JSON.parse(text)
  expect(body.code).toBe(code)
  expect(typeof body.message).toBe('string')
  expect(body.message.length).toBeGreaterThan(0)
  expect(Object.keys(body).every((key) => ['message', 'code', 'issues'].includes(key))).toBe(true)
  return body as { message: string; code: string; issues?: { path: string; message: string }[] }
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

const sign = (
  claims: Record<string, unknown>,
  opts: { sub: string; exp: number; iat?: number; secret?: string; alg?: string },
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(opts.sub)
    .setIssuedAt(opts.iat ?? Math.floor(Date.now() / 1000))
    .setExpirationTime(opts.exp)
    .sign(new TextEncoder().encode(opts.secret ?? TEST_JWT_SECRET))

const nowS = () => Math.floor(Date.now() / 1000)

describe.each(backends())('security on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  describe('error answers', () => {
    test('an unknown API route with a valid token is a JSON 404 NOT_FOUND', async () => {
      const { token } = await h.register()
      for (const [method, path] of [
        ['GET', '/api/nothing-here'],
        ['POST', '/api/users/nothing-here'],
        ['DELETE', '/api/users/profile'],
        ['GET', '/api/'],
      ] as const) {
        const body = await errorBody(await h.call(method, path, { token }), 404, 'NOT_FOUND')
        expect(body).toEqual({ message: expect.any(String), code: 'NOT_FOUND' })
      }
    })

    test('an unknown API route without a token is a JSON 401, revealing nothing about what exists', async () => {
      await errorBody(await h.call('GET', '/api/nothing-here'), 401, 'UNAUTHORIZED')
      await errorBody(await h.call('DELETE', '/api/users/profile'), 401, 'UNAUTHORIZED')
    })

    test('malformed JSON is a 400 VALIDATION_ERROR, on public and signed-in routes alike', async () => {
      const { token } = await h.register()
      for (const body of ['{"email":', '{email: "a@example.com"}', 'not json', '{"a":1}}']) {
        await errorBody(await h.call('POST', '/api/auth/login', { body }), 400, 'VALIDATION_ERROR')
        await errorBody(await h.call('PUT', '/api/users/profile', { token, body }), 400, 'VALIDATION_ERROR')
      }
    })

    test('a JSON body that is not an object is a 400 VALIDATION_ERROR', async () => {
      for (const body of ['null', '[]', '"text"', '42']) {
        await errorBody(await h.call('POST', '/api/auth/login', { body }), 400, 'VALIDATION_ERROR')
      }
    })

    test('a JSON body over 1 MB is a 413 PAYLOAD_TOO_LARGE, before authentication is even needed', async () => {
      const { token } = await h.register()
      const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 10) })
      await errorBody(await h.call('POST', '/api/auth/login', { body: big }), 413, 'PAYLOAD_TOO_LARGE')
      await errorBody(
        await h.call('PUT', '/api/users/profile', { token, body: JSON.stringify({ bio: 'y'.repeat(1_100_000) }) }),
        413,
        'PAYLOAD_TOO_LARGE',
      )
      await errorBody(await h.call('POST', '/api/nothing-here', { body: big }), 413, 'PAYLOAD_TOO_LARGE')
    })

    test('a body just under 1 MB reaches validation instead', async () => {
      const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024 - 100) })
      const res = await h.call('POST', '/api/auth/login', { body })
      expect(res.status).toBe(400)
      expect((await res.json()).issues[0].path).toBe('password')
    })

    test('an unexpected error answers a bare 500 INTERNAL_ERROR without its message or stack', async () => {
      // A fresh app over the same deps: routes cannot be added once an app has answered.
      const app = createApp(h.deps, h.features)
      app.get('/boom-for-test', () => {
        throw new Error('secret detail: password=hunter2')
      })
      const res = await app.request('/boom-for-test')
      const body = await errorBody(res, 500, 'INTERNAL_ERROR')
      expect(JSON.stringify(body)).not.toContain('hunter2')
      expect(JSON.stringify(body)).not.toContain('secret detail')
    })
  })

  describe('headers', () => {
    const expectSecurityHeaders = (res: TestResponse) => {
      const csp = res.headers.get('content-security-policy')
      expect(csp).toBeTruthy()
      const directives = new Map(
        csp!
          .split(';')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => {
            const [name, ...values] = part.split(/\s+/)
            return [name!, values] as const
          }),
      )
      expect(directives.get('default-src')).toEqual(["'self'"])
      const scripts = directives.get('script-src') ?? directives.get('default-src')!
      expect(scripts).not.toContain("'unsafe-inline'")
      expect(scripts).not.toContain("'unsafe-eval'")
      expect(directives.get('object-src')).toEqual(["'none'"])
      expect(directives.get('base-uri')).toEqual(["'self'"])
      expect(directives.get('frame-ancestors')).toEqual(["'none'"])
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('x-powered-by')).toBeNull()
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    }

    test('a successful API answer carries the CSP and the other security headers, and is JSON', async () => {
      const { token } = await h.register()
      const health = await h.call('GET', '/api/health')
      expect(health.status).toBe(200)
      expectSecurityHeaders(health)
      const profile = await h.call('GET', '/api/users/profile', { token })
      expect(profile.status).toBe(200)
      expectSecurityHeaders(profile)
    })

    test('error answers carry the same headers', async () => {
      expectSecurityHeaders(await h.call('GET', '/api/users/profile'))
      expectSecurityHeaders(await h.call('POST', '/api/auth/login', { body: '{' }))
    })

    test('without CORS_ORIGINS no CORS headers are sent, even to a preflight', async () => {
      const preflight = await h.call('OPTIONS', '/api/users/profile', {
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      })
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
      expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
      const get = await h.call('GET', '/api/health', { headers: { origin: 'https://app.example' } })
      expect(get.status).toBe(200)
      expect(get.headers.get('access-control-allow-origin')).toBeNull()
    })
  })

  describe('tokens', () => {
    test('a token signed the way the server signs works (so the refusals below are about the defect)', async () => {
      const { id } = await h.register()
      const token = await sign({ tv: 0 }, { sub: id, exp: nowS() + HOUR_S })
      expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(200)
    })

    test.each([
      ['no header', undefined],
      ['an empty header', ''],
      ['a bare Bearer', 'Bearer'],
      ['Bearer and a space', 'Bearer '],
      ['a Basic credential', 'Basic dXNlcjpwYXNz'],
      ['a token without the Bearer word', 'eyJhbGciOiJIUzI1NiJ9.e30.abc'],
      ['garbage', 'Bearer not-a-jwt'],
      ['three empty parts', 'Bearer ..'],
      ['two tokens', 'Bearer a.b.c d.e.f'],
    ])('%s is a 401 UNAUTHORIZED', async (_what, authorization) => {
      const res = await h.call('GET', '/api/users/profile', {
        headers: authorization === undefined ? {} : { authorization },
      })
      await errorBody(res, 401, 'UNAUTHORIZED')
    })

    test('a token whose signature was tampered with is a 401', async () => {
      const { token } = await h.register()
      const [header, payload, signature] = token.split('.') as [string, string, string]
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
      await errorBody(
        await h.call('GET', '/api/users/profile', { token: `${header}.${payload}.${flipped}` }),
        401,
        'UNAUTHORIZED',
      )
      await errorBody(
        await h.call('GET', '/api/users/profile', { token: `${header}.${payload}.` }),
        401,
        'UNAUTHORIZED',
      )
    })

    test('a token whose payload was swapped for another user keeps its signature and is a 401', async () => {
      const alice = await h.register()
      const bob = await h.register()
      const [header, , signature] = alice.token.split('.') as [string, string, string]
      const claims = JSON.parse(Buffer.from(alice.token.split('.')[1]!, 'base64url').toString())
      const forged = `${header}.${b64url({ ...claims, sub: bob.id })}.${signature}`
      await errorBody(await h.call('GET', '/api/users/profile', { token: forged }), 401, 'UNAUTHORIZED')
    })

    test('a token signed with another secret is a 401', async () => {
      const { id } = await h.register()
      const token = await sign({ tv: 0 }, { sub: id, exp: nowS() + HOUR_S, secret: OTHER_SECRET })
      await errorBody(await h.call('GET', '/api/users/profile', { token }), 401, 'UNAUTHORIZED')
    })

    test('an expired token is a 401, and so is refreshing with it', async () => {
      const { id } = await h.register()
      const token = await sign({ tv: 0 }, { sub: id, iat: nowS() - 8 * 24 * HOUR_S, exp: nowS() - 60 })
      await errorBody(await h.call('GET', '/api/users/profile', { token }), 401, 'UNAUTHORIZED')
      await errorBody(await h.call('POST', '/api/auth/refresh-token', { token }), 401, 'UNAUTHORIZED')
    })

    test('a token with alg "none" and no signature is a 401', async () => {
      const { id } = await h.register()
      const payload = b64url({ sub: id, tv: 0, iat: nowS(), exp: nowS() + HOUR_S })
      for (const alg of ['none', 'None', 'NONE']) {
        const token = `${b64url({ alg, typ: 'JWT' })}.${payload}.`
        await errorBody(await h.call('GET', '/api/users/profile', { token }), 401, 'UNAUTHORIZED')
      }
    })

    test('a token signed with the right secret but another algorithm (HS512) is a 401', async () => {
      const { id } = await h.register()
      const token = await sign({ tv: 0 }, { sub: id, exp: nowS() + HOUR_S, alg: 'HS512' })
      await errorBody(await h.call('GET', '/api/users/profile', { token }), 401, 'UNAUTHORIZED')
    })

    test('a genuine token is a 401 when its user is unknown, its sub is not a UUID, or its token version is stale', async () => {
      const { id } = await h.register()
      const exp = nowS() + HOUR_S
      for (const token of [
        await sign({ tv: 0 }, { sub: '0190a0b0-0000-7000-8000-000000000000', exp }),
        await sign({ tv: 0 }, { sub: "' or 1=1 --", exp }),
        await sign({ tv: 1 }, { sub: id, exp }),
        await sign({ tv: '0' }, { sub: id, exp }),
        await sign({}, { sub: id, exp }),
      ]) {
        await errorBody(await h.call('GET', '/api/users/profile', { token }), 401, 'UNAUTHORIZED')
      }
    })

    test('the public paths answer without a token; refresh-token does not', async () => {
      const health = await h.call('GET', '/api/health')
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ status: 'ok', db: backend })
      expect((await h.call('GET', '/api/openapi.json')).status).toBe(200)
      const login = await h.call('POST', '/api/auth/login', {
        body: { email: uniqueEmail('nobody'), password: PASSWORD },
      })
      await errorBody(login, 401, 'INVALID_CREDENTIALS')
      expect((await h.call('POST', '/api/auth/forgot-password', { body: { email: uniqueEmail() } })).status).toBe(200)
      expect((await h.call('POST', '/api/auth/resend-verification', { body: { email: uniqueEmail() } })).status).toBe(
        200,
      )
      await errorBody(await h.call('POST', '/api/auth/verify-email', { body: { token: 'nope' } }), 410, 'TOKEN_INVALID')
      expect((await h.call('POST', '/api/auth/register', { body: {} })).status).toBe(400)
      await errorBody(await h.call('POST', '/api/auth/refresh-token'), 401, 'UNAUTHORIZED')
      await errorBody(await h.call('POST', '/api/auth/refresh-token/'), 401, 'UNAUTHORIZED')
      await errorBody(await h.call('GET', '/api/users/profile'), 401, 'UNAUTHORIZED')
      await errorBody(await h.call('POST', '/api/uploads/avatar'), 401, 'UNAUTHORIZED')
    })

    test('a public-looking prefix does not open a private path', async () => {
      for (const path of ['/api/health/../users/profile', '/api/healthz', '/api/auth/login/../../users/profile']) {
        const res = await h.call('GET', path)
        expect(res.status).toBe(401)
      }
    })
  })
})

describe.each(backends())('rate limits behind a trusted proxy on %s', (backend) => {
  let h: Harness
  let ipCounter = 0
  // Each test speaks from its own address, so their budgets do not mix.
  const newIp = () => `203.0.113.${++ipCounter}`
  beforeAll(async () => {
    h = await createHarness(backend, { TRUST_PROXY: '1' })
  })
  afterAll(() => h?.close())

  const from = (ip: string) => ({ 'x-forwarded-for': ip })
  const register = async (ip: string, email = uniqueEmail('rl')) => {
    const res = await h.call('POST', '/api/auth/register', {
      body: { name: 'Rate Limited', email, password: PASSWORD },
      headers: from(ip),
    })
    expect(res.status).toBe(201)
    return email
  }
  const login = (ip: string, email: string, password: string) =>
    h.call('POST', '/api/auth/login', { body: { email, password }, headers: from(ip) })

  const expectLimited = async (res: TestResponse) => {
    await errorBody(res, 429, 'RATE_LIMITED')
    const retryAfter = res.headers.get('retry-after')
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThan(0)
  }

  test('after 10 failed logins for one (IP, e-mail) the 11th is 429 even with the right password', async () => {
    const ip = newIp()
    const email = await register(newIp())
    const other = await register(newIp())
    for (let i = 0; i < 10; i++) expect((await login(ip, email, 'Wrong-Passw0rd!')).status).toBe(401)
    await expectLimited(await login(ip, email, PASSWORD))
    await expectLimited(await login(ip, email, 'Wrong-Passw0rd!'))
    // Another address from the same IP, and the same address from another IP, still sign in.
    expect((await login(ip, other, PASSWORD)).status).toBe(200)
    expect((await login(newIp(), email, PASSWORD)).status).toBe(200)
  })

  test('30 wrong passwords at once reach the password check 10 times; the right one sent with them, and after, is 429', async () => {
    const ip = newIp()
    const email = await register(newIp())
    // All started before any answers: a count taken only after the check let every one through to it.
    const wrong = Array.from({ length: 30 }, () => login(ip, email, 'Wrong-Passw0rd!'))
    const right = login(ip, email, PASSWORD)
    const statuses = (await Promise.all(wrong)).map((res) => res.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20)
    await expectLimited(await right)
    await expectLimited(await login(ip, email, PASSWORD))
  })

  test('the login lock-out is keyed on the normalised address', async () => {
    const ip = newIp()
    const email = await register(newIp())
    for (let i = 0; i < 10; i++) {
      const variant = i % 2 === 0 ? email.toUpperCase() : `  ${email} `
      expect((await login(ip, variant, 'Wrong-Passw0rd!')).status).toBe(401)
    }
    await expectLimited(await login(ip, email, PASSWORD))
  })

  test('a successful login clears the failures of that (IP, e-mail)', async () => {
    const ip = newIp()
    const email = await register(newIp())
    for (let i = 0; i < 9; i++) expect((await login(ip, email, 'Wrong-Passw0rd!')).status).toBe(401)
    expect((await login(ip, email, PASSWORD)).status).toBe(200)
    for (let i = 0; i < 9; i++) expect((await login(ip, email, 'Wrong-Passw0rd!')).status).toBe(401)
    expect((await login(ip, email, PASSWORD)).status).toBe(200)
  })

  test('failed logins for unknown addresses count too', async () => {
    const ip = newIp()
    const ghost = uniqueEmail('ghost')
    for (let i = 0; i < 10; i++) expect((await login(ip, ghost, PASSWORD)).status).toBe(401)
    await expectLimited(await login(ip, ghost, PASSWORD))
  })

  test('register allows 10 per hour per IP, then 429, while another IP still registers', async () => {
    const ip = newIp()
    for (let i = 0; i < 10; i++) await register(ip)
    await expectLimited(
      await h.call('POST', '/api/auth/register', {
        body: { name: 'One Too Many', email: uniqueEmail(), password: PASSWORD },
        headers: from(ip),
      }),
    )
    await register(newIp())
  })

  test('forgot-password allows 5 per hour per e-mail, then 429 from any IP, while another e-mail still works', async () => {
    const ip = newIp()
    const email = await register(newIp())
    for (let i = 0; i < 5; i++) {
      const res = await h.call('POST', '/api/auth/forgot-password', { body: { email }, headers: from(ip) })
      expect(res.status).toBe(200)
    }
    await expectLimited(await h.call('POST', '/api/auth/forgot-password', { body: { email }, headers: from(ip) }))
    await expectLimited(
      await h.call('POST', '/api/auth/forgot-password', {
        body: { email: email.toUpperCase() },
        headers: from(newIp()),
      }),
    )
    const other = await h.call('POST', '/api/auth/forgot-password', {
      body: { email: uniqueEmail() },
      headers: from(ip),
    })
    expect(other.status).toBe(200)
  })

  test('resend-verification shares the per-e-mail budget with forgot-password', async () => {
    const email = await register(newIp())
    for (let i = 0; i < 3; i++) {
      const res = await h.call('POST', '/api/auth/forgot-password', { body: { email }, headers: from(newIp()) })
      expect(res.status).toBe(200)
    }
    for (let i = 0; i < 2; i++) {
      const res = await h.call('POST', '/api/auth/resend-verification', { body: { email }, headers: from(newIp()) })
      expect(res.status).toBe(200)
    }
    await expectLimited(
      await h.call('POST', '/api/auth/resend-verification', { body: { email }, headers: from(newIp()) }),
    )
    await expectLimited(await h.call('POST', '/api/auth/forgot-password', { body: { email }, headers: from(newIp()) }))
  })

  test('e-mail actions allow 20 per hour per IP across addresses, then 429', async () => {
    const ip = newIp()
    for (let i = 0; i < 20; i++) {
      const path = i % 2 === 0 ? '/api/auth/forgot-password' : '/api/auth/resend-verification'
      const res = await h.call('POST', path, { body: { email: uniqueEmail('many') }, headers: from(ip) })
      expect(res.status).toBe(200)
    }
    await expectLimited(
      await h.call('POST', '/api/auth/forgot-password', { body: { email: uniqueEmail('many') }, headers: from(ip) }),
    )
  })

  test('with TRUST_PROXY=1 different X-Forwarded-For addresses count separately', async () => {
    const a = newIp()
    for (let i = 0; i < 10; i++) await register(a)
    await expectLimited(
      await h.call('POST', '/api/auth/register', {
        body: { name: 'One Too Many', email: uniqueEmail(), password: PASSWORD },
        headers: from(a),
      }),
    )
    await register(newIp())
  })

  test('entries a client puts in front of X-Forwarded-For do not escape the limit; the proxy-added last one counts', async () => {
    // A proxy that appends (nginx $proxy_add_x_forwarded_for, most load balancers) keeps what the client sent.
    const real = newIp()
    for (let i = 0; i < 10; i++) await register(`198.18.0.${i + 1}, ${real}`)
    await expectLimited(
      await h.call('POST', '/api/auth/register', {
        body: { name: 'One Too Many', email: uniqueEmail(), password: PASSWORD },
        headers: from(`198.18.0.99, ${real}`),
      }),
    )
    await register(`198.18.0.99, ${newIp()}`)
  })

  test('100 failed logins from one IP, over any addresses, lock that IP out of logging in for a while', async () => {
    const ip = newIp()
    const email = await register(newIp())
    for (let i = 0; i < 100; i++) {
      expect((await login(ip, uniqueEmail('spray'), 'Wrong-Passw0rd!')).status).toBe(401)
    }
    await expectLimited(await login(ip, email, PASSWORD))
    expect((await login(newIp(), email, PASSWORD)).status).toBe(200)
  })
})

describe.each(backends())('rate limits and CORS without a trusted proxy on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { CORS_ORIGINS: 'https://app.example' })
  })
  afterAll(() => h?.close())

  test('X-Forwarded-For is ignored by default: changing it does not escape the register limit', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await h.call('POST', '/api/auth/register', {
        body: { name: 'Spoofer', email: uniqueEmail('spoof'), password: PASSWORD },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      })
      expect(res.status).toBe(201)
    }
    const res = await h.call('POST', '/api/auth/register', {
      body: { name: 'Spoofer', email: uniqueEmail('spoof'), password: PASSWORD },
      headers: { 'x-forwarded-for': '198.51.100.99' },
    })
    await errorBody(res, 429, 'RATE_LIMITED')
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  test('a preflight from an allowed origin is answered with that origin', async () => {
    const res = await h.call('OPTIONS', '/api/users/profile', {
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(res.status).toBeLessThan(300)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT')
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  test('an ordinary request from an allowed origin gets the origin back', async () => {
    const res = await h.call('GET', '/api/health', { headers: { origin: 'https://app.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })

  test('another origin gets no access-control-allow-origin, on a preflight or a request', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.evil.test', 'http://app.example', 'null']) {
      const preflight = await h.call('OPTIONS', '/api/users/profile', {
        headers: { origin, 'access-control-request-method': 'PUT' },
      })
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
      const get = await h.call('GET', '/api/health', { headers: { origin } })
      expect(get.headers.get('access-control-allow-origin')).toBeNull()
    }
  })
})
