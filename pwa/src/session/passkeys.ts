/**
 * Passkeys in the browser (decision 102): loading @simplewebauthn/browser once a passkey is used, and
 * ending a ceremony. The ceremonies are in passkey-ceremonies.ts; whether the browser has WebAuthn at
 * all, in passkey-support.ts (the one part the sign-in page's first load carries).
 */

type Library = typeof import('@simplewebauthn/browser')
let library: Promise<Library> | undefined

/** @simplewebauthn/browser, loaded on first use. */
export const passkeyLibrary = (): Promise<Library> => {
  library ??= import('@simplewebauthn/browser')
  return library
}

/** Ends a ceremony still waiting (the autofill one when the page goes or the password is used). */
export function cancelPasskey(): void {
  void library?.then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony())
}
