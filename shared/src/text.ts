/** Rules for names, e-mail addresses and display helpers shared by server and client. */

import { LIMITS } from './constants.ts'

/** Trim and lower-case an e-mail address, as the server stores it. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** One `@`, a non-empty local part, a dotted domain, no spaces, at most 254 characters. */
export function isEmailLike(email: string): boolean {
  if (email.length === 0 || email.length > LIMITS.email || /\s/.test(email)) return false
  const parts = email.split('@')
  if (parts.length !== 2) return false
  const [local, domain] = parts as [string, string]
  if (local.length === 0) return false
  const labels = domain.split('.')
  return labels.length >= 2 && labels.every((label) => label.length > 0)
}

// C0/C1 controls (CR, LF, tab…) and the bidi overrides/isolates that can disguise a name.
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** True when a name holds a control character or a bidi override. */
export const hasControlCharacters = (text: string): boolean => FORBIDDEN_IN_NAMES.test(text)

/** Up to two initials: first letters of the first and last words, upper-cased. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return '?'
  const first = [...(words[0] as string)][0] ?? ''
  const last = words.length > 1 ? ([...(words[words.length - 1] as string)][0] ?? '') : ''
  return (first + last).toUpperCase()
}

const AVATAR_COLOURS = [
  '#e11d48',
  '#db2777',
  '#c026d3',
  '#9333ea',
  '#7c3aed',
  '#4f46e5',
  '#2563eb',
  '#0284c7',
  '#0891b2',
  '#0d9488',
  '#059669',
  '#16a34a',
  '#65a30d',
  '#ca8a04',
  '#d97706',
  '#ea580c',
  '#dc2626',
  '#be123c',
  '#a21caf',
  '#6d28d9',
  '#1d4ed8',
  '#0369a1',
  '#0f766e',
  '#15803d',
  '#a16207',
  '#c2410c',
] as const

/** The background colour of an initials avatar, chosen by the name's first letter. */
export function avatarColour(name: string): string {
  const letter = name.trim().charAt(0).toUpperCase()
  const index = letter >= 'A' && letter <= 'Z' ? letter.charCodeAt(0) - 65 : 0
  return AVATAR_COLOURS[index % AVATAR_COLOURS.length] as string
}
