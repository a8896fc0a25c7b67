/** What the signed-out pages say beyond the spec's own texts (issue 21 §5). */
export const AUTH_TEXTS = {
  /** The one line above the sign-in form that says what Buble is. */
  tagline: 'Buble is a private space for your small groups: posts, chat, events and polls, even offline.',
  /** The verification link opened again once the address is verified (the API's ALREADY_VERIFIED_MESSAGE). */
  alreadyVerified: ALREADY_VERIFIED_MESSAGE,
} as const

import { ALREADY_VERIFIED_MESSAGE } from '@buble/shared/auth'
import { LOGIN_REASON_KEYS, type LoginReason } from '../../session/redirect.ts'

/** Why the app sent the user to /login (`/login?reason=…`), and the line the page shows for it. */
export const LOGIN_REASONS: Readonly<Record<LoginReason, string>> = {
  'password-changed': 'You were signed out because your password was changed or reset. Sign in with the new password.',
  'session-expired': 'Your session has expired. Please sign in again; anything waiting to be sent is kept.',
}

export const isLoginReason = (value: string | null): value is LoginReason =>
  (LOGIN_REASON_KEYS as readonly (string | null)[]).includes(value)
