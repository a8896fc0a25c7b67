/**
 * The sign-in page's passkey part (decision 102): the button and the e-mail field's autofill. Loaded
 * lazily by the page, so its first load carries none of it.
 */

import type { AuthResponse } from '@buble/shared/auth'
import { browserHasPasskeys } from '../../session/passkey-support.ts'
import { Alert } from '../../ui/alert.tsx'
import { PASSKEY_SIGN_IN_TEXTS as TEXTS } from './passkey-sign-in-texts.ts'
import { usePasskeySignIn } from './use-passkey-sign-in.ts'

/** The page's passkey part, where the browser has WebAuthn (nothing where it has not). */
export default function PasskeySignIn(props: Props) {
  return browserHasPasskeys() ? <PasskeyButton {...props} /> : null
}

interface Props {
  onSignedIn: (answer: AuthResponse) => void
  /** A password sign-in is under way: the autofill's request is ended, and offered again if it fails. */
  passwordBusy: boolean
}

function PasskeyButton({ onSignedIn, passwordBusy }: Props) {
  const passkey = usePasskeySignIn(onSignedIn, passwordBusy)
  return (
    <>
      <p className="auth-or">{TEXTS.or}</p>
      {passkey.error && <Alert kind="error">{passkey.error}</Alert>}
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={passwordBusy || passkey.busy}
        onClick={() => void passkey.signInWithPasskey()}
      >
        {passkey.busy ? TEXTS.busy : TEXTS.button}
      </button>
    </>
  )
}
