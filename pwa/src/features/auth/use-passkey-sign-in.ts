/**
 * Signing in with a passkey on the sign-in page: the button's dialog, and the e-mail field's autofill
 * (conditional UI) where the browser offers it, ended when the page goes or the password is used.
 */

import type { AuthResponse } from '@buble/shared/auth'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { browserHasPasskeyAutofill, getPasskey, passkeyFailureOf } from '../../session/passkey-ceremonies.ts'
import { cancelPasskey } from '../../session/passkeys.ts'
import { useServices } from '../../session/session-context.tsx'
import { PASSKEY_SIGN_IN_TEXTS as TEXTS } from './passkey-sign-in-texts.ts'

function describe(err: unknown): string {
  if (err instanceof ApiError) return messageOf(err, TEXTS.failed)
  const failure = passkeyFailureOf(err)
  if (failure === 'cancelled') return TEXTS.cancelled
  if (failure === 'unsupported') return TEXTS.unsupported
  return TEXTS.failed
}

/** While `paused` (a password sign-in under way) the autofill is not offered: ended, and offered again after. */
export function usePasskeySignIn(onSignedIn: (answer: AuthResponse) => void, paused: boolean) {
  const { api } = useServices()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // Bumped to offer the autofill again once the button's ceremony ended it.
  const [round, setRound] = useState(0)
  const latest = useRef(onSignedIn)
  latest.current = onSignedIn

  const answer = useCallback(
    async (response: unknown) => latest.current(await api.post<AuthResponse>('/auth/passkeys/login', { response })),
    [api],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how the autofill is offered again.
  useEffect(() => {
    if (paused) return
    let active = true
    async function offer() {
      if (!(await browserHasPasskeyAutofill()) || !active) return
      try {
        const options = await api.post('/auth/passkeys/options')
        if (!active) return
        const response = await getPasskey(options, true)
        if (!active) return
        setError(null)
        setBusy(true)
        await answer(response)
      } catch (err) {
        if (!active) return
        setBusy(false)
        // Ended by the button, the password form or the page: nothing to say.
        if (!(err instanceof ApiError)) return
        setError(describe(err))
        // The server refused this passkey: the field offers them again.
        void offer()
      }
    }
    void offer()
    return () => {
      active = false
      cancelPasskey()
    }
  }, [api, answer, round, paused])

  async function signInWithPasskey() {
    setError(null)
    setBusy(true)
    try {
      const options = await api.post('/auth/passkeys/options')
      // One ceremony at a time: this one ends the autofill's.
      await answer(await getPasskey(options))
    } catch (err) {
      setBusy(false)
      setError(describe(err))
      setRound((n) => n + 1)
    }
  }

  return { busy, error, signInWithPasskey }
}
