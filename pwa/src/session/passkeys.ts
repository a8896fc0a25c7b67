/**
 * The browser half of passkeys (decision 102), for the sign-in page and the profile: WebAuthn through
 * @simplewebauthn/browser, which is loaded only once a passkey is used, never with the first page.
 */

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'

type Library = typeof import('@simplewebauthn/browser')
let library: Promise<Library> | undefined
const load = (): Promise<Library> => {
  library ??= import('@simplewebauthn/browser')
  return library
}

/** Why a passkey ceremony ended without an answer. */
export type PasskeyFailure = 'cancelled' | 'exists' | 'unsupported' | 'failed'

/** Whether this browser has WebAuthn at all (no library needed to tell). */
export const browserHasPasskeys = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

/** Whether the browser offers passkeys in the e-mail field's autofill (conditional mediation). */
export async function browserHasPasskeyAutofill(): Promise<boolean> {
  if (!browserHasPasskeys()) return false
  const check = window.PublicKeyCredential.isConditionalMediationAvailable
  return typeof check === 'function' ? check.call(window.PublicKeyCredential).catch(() => false) : false
}

/** Asks the authenticator for a new passkey for `options` (the server's registration options). */
export async function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await load()
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
}

/** Asks for a passkey answering `options`: in a dialog, or (`autofill`) from the e-mail field's suggestions. */
export async function getPasskey(options: unknown, autofill = false): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await load()
  return startAuthentication({
    optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  })
}

/** Ends a ceremony still waiting (the autofill one when the page goes or the password is used). */
export function cancelPasskey(): void {
  void library?.then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony())
}

/** What a failed ceremony means for the member: they said no (or it was ended), the passkey exists, or no support. */
export function passkeyFailureOf(err: unknown): PasskeyFailure {
  const { name, code, message } = (err ?? {}) as { name?: string; code?: string; message?: string }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return 'exists'
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError' || name === 'NotAllowedError') return 'cancelled'
  if (/not supported/i.test(message ?? '')) return 'unsupported'
  return 'failed'
}
