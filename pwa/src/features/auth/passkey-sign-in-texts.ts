/** The sign-in page's passkey texts (kept apart from auth-texts.ts: they load with the lazy passkey part). */

/** Signing in with a passkey (decision 102); the server's refusals (not recognised, expired) are shown as it words them. */
export const PASSKEY_SIGN_IN_TEXTS = {
  button: 'Sign in with a passkey',
  busy: 'Waiting for your passkey…',
  or: 'or',
  cancelled: 'Passkey sign-in was cancelled. Try again, or sign in with your password.',
  unsupported: 'This browser cannot use passkeys. Sign in with your password.',
  failed: 'Passkey sign-in failed. Please try again.',
} as const
