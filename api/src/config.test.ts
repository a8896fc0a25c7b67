import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

/** The error loadConfig throws for `env`, or a failure when it throws none. */
function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return err as ConfigError
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(Object.keys(env))}`)
}

describe('loadConfig', () => {
  test('with nothing set it answers the defaults of CONTRACT §1.1', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      jwtSecret: undefined,
      smtpUrl: undefined,
      mailFrom: 'Buble <no-reply@localhost>',
      adminEmails: [],
      vapid: { publicKey: undefined, privateKey: undefined, subject: 'mailto:admin@localhost' },
      ticketmaster: { apiKey: undefined, baseUrl: 'https://app.ticketmaster.com/discovery/v2' },
      weather: { baseUrl: 'https://api.open-meteo.com', geocodingUrl: 'https://geocoding-api.open-meteo.com' },
      donations: {
        currency: 'EUR',
        stripeLink: undefined,
        paypalLink: undefined,
        bankIban: undefined,
        bankBic: undefined,
        suggestedAmounts: [5, 10, 20, 50],
      },
      rateLimits: true,
      trustProxy: false,
      corsOrigins: [],
      logLevel: 'info',
    })
    expect(path.isAbsolute(config.dataDir)).toBe(true)
    expect(config.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  test('the default PUBLIC_URL follows PORT', () => {
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000')
  })

  test('reads every variable it is given', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/buble',
      DATABASE_URL: 'postgres://buble@db:5432/buble',
      PUBLIC_URL: 'https://buble.example/',
      JWT_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtp://user:pass@mail:587',
      BUBLE_ADMIN_EMAILS: 'Boss@Example.com, second@example.com ,',
      DONATION_SUGGESTED_AMOUNTS: '3, 7.5',
      BUBLE_RATE_LIMITS: 'off',
      TRUST_PROXY: '1',
      CORS_ORIGINS: 'https://app.example, http://localhost:5173',
      LOG_LEVEL: 'warn',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/buble',
      databaseUrl: 'postgres://buble@db:5432/buble',
      publicUrl: 'https://buble.example',
      jwtSecret: 'x'.repeat(32),
      smtpUrl: 'smtp://user:pass@mail:587',
      adminEmails: ['boss@example.com', 'second@example.com'],
      donations: { suggestedAmounts: [3, 7.5] },
      rateLimits: false,
      trustProxy: true,
      corsOrigins: ['https://app.example', 'http://localhost:5173'],
      logLevel: 'warn',
    })
  })

  test('CORS_ORIGINS entries are reduced to origins, so a trailing slash or capital letters still match a browser Origin', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example/, https://Other.Example:8443' }).corsOrigins).toEqual([
      'https://app.example',
      'https://other.example:8443',
    ])
  })

  test('a postgresql:// URL is accepted as well as postgres://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/buble' }).databaseUrl).toBe('postgresql://db/buble')
  })

  test('the answer is frozen', () => {
    const config = loadConfig({})
    expect(Object.isFrozen(config)).toBe(true)
    expect(() => {
      ;(config as { port: number }).port = 1
    }).toThrow()
  })

  test('empty strings count as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      PUBLIC_URL: '',
      JWT_SECRET: '',
      SMTP_URL: '',
      BUBLE_RATE_LIMITS: '',
      TRUST_PROXY: '',
      CORS_ORIGINS: '',
      LOG_LEVEL: '',
      DONATION_SUGGESTED_AMOUNTS: '',
    })
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      jwtSecret: undefined,
      smtpUrl: undefined,
      rateLimits: true,
      trustProxy: false,
      corsOrigins: [],
      logLevel: 'info',
      donations: { suggestedAmounts: [5, 10, 20, 50] },
    })
  })

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://dbuser:hunter2@db/buble'],
    ['DATABASE_URL', 'not a url at all'],
    ['JWT_SECRET', 'short-but-secret-value'],
    ['JWT_SECRET', 'x'.repeat(31)],
    ['BUBLE_RATE_LIMITS', 'maybe'],
    ['TRUST_PROXY', 'yes'],
    ['PUBLIC_URL', 'notaurl'],
    ['PUBLIC_URL', 'ftp://files.example'],
    ['SMTP_URL', 'http://mail.example'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', 'ftp://x'],
    ['CORS_ORIGINS', 'https://ok.example, gopher://x'],
    ['VAPID_SUBJECT', 'admin@example.com'],
    ['DONATION_CURRENCY', 'euro'],
    ['DONATION_SUGGESTED_AMOUNTS', '5,ten'],
    ['DONATION_STRIPE_LINK', 'http://pay.example'],
  ])('%s=%j stops start-up with a ConfigError naming the variable and not its value', (name, value) => {
    const err = configErrorOf({ [name]: value })
    expect(err.message).toContain(name)
    expect(err.message).not.toContain(value)
    expect(err.message).not.toContain('\n')
  })

  const S3_ENV = {
    S3_ENDPOINT: 'http://garage:3900',
    S3_BUCKET: 'buble-files',
    S3_REGION: 'garage',
    S3_ACCESS_KEY_ID: 'GK0123',
    S3_SECRET_ACCESS_KEY: 'very-secret-key',
  }

  test('without S3_* files stay on disk; with all five they go to the bucket', () => {
    expect(loadConfig({}).s3).toBeUndefined()
    expect(loadConfig({ ...S3_ENV, S3_FORCE_PATH_STYLE: 'true' }).s3).toEqual({
      endpoint: 'http://garage:3900',
      bucket: 'buble-files',
      region: 'garage',
      accessKeyId: 'GK0123',
      secretAccessKey: 'very-secret-key',
      forcePathStyle: true,
    })
    expect(loadConfig(S3_ENV).s3?.forcePathStyle).toBe(false)
  })

  test('S3 half configured stops start-up, naming every missing variable and no value', () => {
    const { S3_REGION: _region, S3_SECRET_ACCESS_KEY: _secret, ...partial } = S3_ENV
    const err = configErrorOf(partial)
    expect(err.message).toBe(
      'S3 storage is half configured: set S3_REGION, S3_SECRET_ACCESS_KEY too, or none of the S3_* variables',
    )
    expect(err.message).not.toContain('GK0123')
    expect(configErrorOf({ S3_FORCE_PATH_STYLE: 'true' }).message).toContain('S3_ENDPOINT, S3_BUCKET')
    expect(configErrorOf({ ...S3_ENV, S3_ENDPOINT: 'garage:3900' }).message).toMatch(/^Invalid S3_ENDPOINT: /)
  })

  test('a short JWT_SECRET is never echoed, not even in part', () => {
    const secret = 'hunter2-s3cr3t'
    const err = configErrorOf({ JWT_SECRET: secret })
    expect(err.message).toBe('Invalid JWT_SECRET: must be at least 32 bytes')
    expect(err.message).not.toContain('hunter2')
  })

  test('a password inside a bad DATABASE_URL is never echoed', () => {
    const err = configErrorOf({ DATABASE_URL: 'mysql://admin:Pa55word@db.internal/buble' })
    expect(err.message).toMatch(/^Invalid DATABASE_URL: /)
    expect(err.message).not.toContain('Pa55word')
    expect(err.message).not.toContain('db.internal')
  })

  test('with several bad values, one of them is named', () => {
    const err = configErrorOf({ PORT: 'abc', LOG_LEVEL: 'loud' })
    expect(err.message).toMatch(/^Invalid (PORT|LOG_LEVEL): /)
  })
})
