/** A real SMTP server on 127.0.0.1 that keeps every mail it receives, for tests that follow mailed links. */

import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface CapturedMail {
  to: string
  subject: string
  text: string
  html: string
}

export interface SmtpCapture {
  url: string
  mails: CapturedMail[]
  /** Waits for the next mail to `to` that arrived after `after` mails, and returns it. */
  waitFor(to: string, opts?: { after?: number; timeoutMs?: number }): Promise<CapturedMail>
  /** The first link in a mail's plain-text part that starts with `prefix`. */
  linkIn(mail: CapturedMail, prefix: string): string
  close(): Promise<void>
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to
          mails.push({
            to: to?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          })
          done()
        })
        .catch(done)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, { after = 0, timeoutMs = 5000 } = {}) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const mail = mails.slice(after).find((m) => m.to === to)
        if (mail) return mail
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    linkIn(mail, prefix) {
      const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix))
      if (!link) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`)
      return link
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
