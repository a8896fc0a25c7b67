import { useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useApi, useSession } from '../../session/session-context.tsx'
import { useFlash } from '../../ui/use-flash.ts'

export const RESENT_TEXT = 'Verification email sent! Please check your inbox.'

/** Shown above signed-in screens while the user's e-mail address is unverified. */
export function VerificationBanner() {
  const api = useApi()
  const user = useSession((state) => state.user)
  const [sent, showSent] = useFlash()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!user || user.email_verified) return null

  async function resend() {
    if (!user) return
    setBusy(true)
    setError(null)
    try {
      await api.post('/auth/resend-verification', { email: user.email })
      showSent(RESENT_TEXT)
    } catch (err) {
      setError(messageOf(err, 'Failed to send verification email'))
    } finally {
      setBusy(false)
    }
  }

  const message = `Please verify your email address. We sent a link to ${user.email}.`
  // On a phone the message keeps to one line (cut with an ellipsis, whole in its title) beside a small button.
  return (
    <section className="banner" aria-label="Email verification">
      <div className="banner-inner">
        <div className="banner-text" aria-live="polite">
          {sent ? (
            <p className="banner-message">{sent}</p>
          ) : (
            <p className="banner-message" title={message}>
              Please verify your email address. We sent a link to <strong>{user.email}</strong>.
            </p>
          )}
          {error && !sent && (
            <p className="banner-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="button" className="btn btn-small btn-light banner-button" onClick={resend} disabled={busy}>
          {busy ? 'Sending…' : 'Resend email'}
        </button>
      </div>
    </section>
  )
}
