/** Reads the mails global-setup.ts filed, and finds the link a test should follow. */

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from '@playwright/test'

const mailDir = () => path.join(process.env.E2E_RUN_DIR!, 'mail')

// Enough MIME for our own mails: undo quoted-printable soft breaks and escapes.
const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))

function mailsTo(address: string): string[] {
  return readdirSync(mailDir())
    .filter((name) => name.endsWith(`-${address}.eml`))
    .sort()
    .map((name) => decodeQuotedPrintable(readFileSync(path.join(mailDir(), name), 'utf8')))
}

/** How many mails `address` has had so far. */
export const mailCount = (address: string): number => mailsTo(address).length

/**
 * The first link containing `pathPart` in the newest mail to `address`, waiting for the mail to
 * arrive; with `after`, for a mail beyond the first `after` (one sent after the answer, as
 * resend-verification's and forgot-password's are).
 */
export async function linkFromMail(address: string, pathPart: string, { after = 0 } = {}): Promise<string> {
  let link = ''
  await expect
    .poll(
      () => {
        const mails = mailsTo(address)
        const newest = mails.length > after ? (mails.at(-1) ?? '') : ''
        link = newest.match(new RegExp(`https?://[^\\s"<>]*${pathPart.replace(/[?]/g, '\\?')}[^\\s"<>]*`))?.[0] ?? ''
        return link
      },
      { message: `a mail to ${address} with a ${pathPart} link`, timeout: 15_000 },
    )
    .not.toBe('')
  return link.replace(/&amp;/g, '&')
}
