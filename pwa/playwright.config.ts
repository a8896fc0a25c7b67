/**
 * Browser tests: the built PWA served by the real API server, in the system Chromium.
 * Run with `npm run test:e2e` from the repository root (it builds the PWA first).
 */

import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

const here = path.dirname(fileURLToPath(import.meta.url))

// A port nobody is listening on now, below Linux's ephemeral range (32768–60999): an outgoing
// connection made between this choice and the server's listen (the build, the global setup) takes its
// local port from that range, and once took the one chosen (EADDRINUSE). Distinct from the run's others.
const PICK_PORT = `
const net = require('node:net')
const skip = new Set(process.argv[1].split(','))
const pick = (tries) => {
  const port = 20000 + Math.floor(Math.random() * 12000)
  if (skip.has(String(port))) return pick(tries)
  const server = net.createServer()
  server.once('error', () => (tries > 0 ? pick(tries - 1) : process.exit(1)))
  server.listen(port, '127.0.0.1', () => server.close(() => console.log(port)))
}
pick(100)`
const chosen: string[] = []
const freePort = () => {
  const port = execFileSync(process.execPath, ['-e', PICK_PORT, chosen.join(',')])
    .toString()
    .trim()
  chosen.push(port)
  return port
}

// The config is loaded again in every worker; the environment, inherited from the runner, keeps one choice per run.
process.env.E2E_PORT ??= freePort()
process.env.E2E_SMTP_PORT ??= freePort()
process.env.E2E_PROVIDER_PORT ??= freePort()
process.env.E2E_RUN_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'buble-e2e-'))
const port = Number(process.env.E2E_PORT)
const smtpPort = Number(process.env.E2E_SMTP_PORT)
const providers = `http://127.0.0.1:${process.env.E2E_PROVIDER_PORT}`
const runDir = process.env.E2E_RUN_DIR
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The real server, allowed to reach the fake providers on 127.0.0.1 (api/src/testing/e2e-server.ts).
    command: 'node --import tsx api/src/testing/e2e-server.ts',
    cwd: path.resolve(here, '..'),
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(runDir, 'data'),
      PUBLIC_URL: baseURL,
      // WebAuthn takes no IP address as relying party: the passkey spec opens the app at localhost, one of
      // the operator's origins, whose host becomes the relying party (decision 102). Same-origin pages need no CORS.
      CORS_ORIGINS: `http://localhost:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      BUBLE_RATE_LIMITS: 'off',
      WEATHER_BASE_URL: providers,
      GEOCODING_BASE_URL: providers,
      TICKETMASTER_BASE_URL: `${providers}/discovery/v2`,
      TICKETMASTER_API_KEY: 'e2e-fake-key',
      // The donate page with every way to give configured (pwa/e2e/donate.spec.ts).
      DONATION_STRIPE_LINK: 'https://donate.stripe.com/test_e2e',
      DONATION_PAYPAL_LINK: 'https://www.paypal.com/donate?hosted_button_id=E2E',
      DONATION_BANK_IBAN: 'DE89 3704 0044 0532 0130 00',
      DONATION_BANK_BIC: 'COBADEFFXXX',
      LOG_LEVEL: 'warn',
      ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
    },
  },
})
