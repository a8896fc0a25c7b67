import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Config } from '../config.ts'
import { loadSecrets } from './secrets.ts'

const SECRETS = fileURLToPath(new URL('./secrets.ts', import.meta.url))
const run = promisify(execFile)

/** Config with nothing set in the environment: every secret comes from DATA_DIR. */
const configOf = (dataDir: string) => ({ dataDir, vapid: {} }) as unknown as Config

describe('secrets kept in DATA_DIR', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  test('six processes starting at once on one DATA_DIR all get the same JWT secret and VAPID keys', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'buble-secrets-'))
    // Each loads the module, then waits for one agreed moment: the six read and write together.
    const script = `import(${JSON.stringify(SECRETS)}).then(({ loadSecrets }) => {
      const go = () => console.log(JSON.stringify(loadSecrets({ dataDir: process.argv[1], vapid: {} })))
      const wait = Number(process.argv[2]) - Date.now()
      setTimeout(() => { while (Date.now() < Number(process.argv[2])); go() }, Math.max(0, wait - 20))
    })`
    const at = String(Date.now() + 4000)
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ['--import', 'tsx', '-e', script, dir, at])),
    )
    const seen = new Set(answers.map(({ stdout }) => stdout.trim()))
    expect(seen.size).toBe(1)
    const [only] = [...seen]
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual(JSON.parse(only!))
    // Nothing written aside is left behind.
    expect(readdirSync(dir)).toEqual(['secrets.json'])
  }, 30_000)

  test('kept secrets are read back; an unreadable file is written afresh', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'buble-secrets-'))
    const first = loadSecrets(configOf(dir))
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32)
    expect(loadSecrets(configOf(dir))).toEqual(first)
    writeFileSync(path.join(dir, 'secrets.json'), '{"jwtSec')
    const fresh = loadSecrets(configOf(dir))
    expect(fresh.jwtSecret).not.toBe(first.jwtSecret)
    expect(loadSecrets(configOf(dir))).toEqual(fresh)
  })
})
