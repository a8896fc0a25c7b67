/**
 * Outgoing mail through nodemailer: SMTP when SMTP_URL is set, otherwise each message is logged
 * with its link and written to DATA_DIR/mail/ as an .eml file, so a laptop install still works.
 */

import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from './log.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /** The one link the mail is about, logged when there is no SMTP server. */
  link?: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
}

export function createMailer(opts: {
  smtpUrl: string | undefined
  from: string
  dataDir: string
  log: Logger
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl)
    return {
      async send(message) {
        await transport.sendMail({
          from: opts.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        })
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  const dir = path.join(opts.dataDir, 'mail')
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: opts.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      })
      await mkdir(dir, { recursive: true })
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 16)}.eml`,
      )
      await writeFile(file, info.message as Buffer)
      opts.log.info('mail written (no SMTP_URL set)', {
        to: message.to,
        subject: message.subject,
        link: message.link,
        file,
      })
    },
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

/** A mail with one call-to-action link, in a plain-text and an HTML part. */
export function linkMail(opts: {
  to: string
  subject: string
  greeting: string
  lines: string[]
  action: string
  link: string
  footer: string
}): MailMessage {
  const text = [
    opts.greeting,
    '',
    ...opts.lines,
    '',
    `${opts.action}: ${opts.link}`,
    '',
    opts.footer,
    '',
    '— Buble',
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(opts.greeting)}</p>
${opts.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(opts.link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(opts.action)}</a></p>
<p style="font-size:13px;color:#6b7280">Or open this link: ${escapeHtml(opts.link)}</p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(opts.footer)}</p>
<p>— Buble</p></body></html>`
  return { to: opts.to, subject: opts.subject, text, html, link: opts.link }
}
