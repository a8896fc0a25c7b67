/** Whether this browser has WebAuthn at all (decision 102): no library needed to tell, so first loads may ask. */
export const browserHasPasskeys = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
