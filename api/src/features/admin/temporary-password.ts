/** Temporary passwords an admin has mailed (CONTRACT §6): random, and always within the strong rule. */

import { randomInt } from 'node:crypto'
import { strongPasswordProblem } from '@buble/shared/password'

// No look-alikes (0/O, 1/l/I), so the password can be read out or typed from a mail.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
const LOWER = 'abcdefghijkmnopqrstuvwxyz'
const DIGITS = '23456789'
const ALL = UPPER + LOWER + DIGITS
const LENGTH = 16

const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!

/** 16 characters from a CSPRNG (about 94 bits), with at least one upper-case letter, lower-case letter and digit. */
export function temporaryPassword(): string {
  for (;;) {
    const password = Array.from({ length: LENGTH }, () => pick(ALL)).join('')
    // Rejection keeps every password equally likely among those that pass.
    if (strongPasswordProblem(password) === null) return password
  }
}
