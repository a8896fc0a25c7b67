/** Passkey ceremonies in the browser (decision 102): create one, use one, and what a failure means. */

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { browserHasPasskeys } from './passkey-support.ts'
import { passkeyLibrary } from './passkeys.ts'

/** Why a passkey ceremony ended without an answer. */
export type PasskeyFailure = 'cancelled' | 'exists' | 'unsupported' | 'failed'

/** Whether the browser offers passkeys in the e-mail field's autofill (conditional mediation). */
export async function browserHasPasskeyAutofill(): Promise<boolean> {
  if (!browserHasPasskeys()) return false
  const check = window.PublicKeyCredential.isConditionalMediationAvailable
  return typeof check === 'function' ? check.call(window.PublicKeyCredential).catch(() => false) : false
}

/** Asks the authenticator for a new passkey for `options` (the server's registration options). */
export async function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await passkeyLibrary()
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
}

/** Asks for a passkey answering `options`: in a dialog, or (`autofill`) from the e-mail field's suggestions. */
export async function getPasskey(options: unknown, autofill = false): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await passkeyLibrary()
  return startAuthentication({
    optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  })
}

/** What a failed ceremony means for the member: they said no (or it was ended), the passkey exists, or no support. */
export function passkeyFailureOf(err: unknown): PasskeyFailure {
  const { name, code, message } = (err ?? {}) as { name?: string; code?: string; message?: string }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return 'exists'
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError' || name === 'NotAllowedError') return 'cancelled'
  if (/not supported/i.test(message ?? '')) return 'unsupported'
  return 'failed'
}
