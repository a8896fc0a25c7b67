/**
 * Starts a local SMTP server that files every mail the app sends under E2E_RUN_DIR/mail, for the tests
 * to open, and the fake weather and Ticketmaster services; the teardown removes the run directory.
 */

import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import { startFakeProviders } from './fake-providers.ts'

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mailDir = path.join(process.env.E2E_RUN_DIR!, 'mail')
  mkdirSync(mailDir, { recursive: true })
  let count = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(',')
        count += 1
        const name = `${String(count).padStart(4, '0')}-${to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`
        writeFileSync(path.join(mailDir, name), Buffer.concat(chunks))
        done()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(Number(process.env.E2E_SMTP_PORT), '127.0.0.1', resolve)
  })
  const providers = await startFakeProviders(Number(process.env.E2E_PROVIDER_PORT))
  return async () => {
    await providers.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    // The run directory (mail, and the server's DATA_DIR) is this run's alone.
    rmSync(process.env.E2E_RUN_DIR!, { recursive: true, force: true })
  }
}
