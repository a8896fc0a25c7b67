import { RegistrationPreview } from '@buble/shared/bubles'
import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { useOnlineQuery } from '../../data/online.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { landAfterSignIn } from '../../session/return-to.ts'
import { useServices } from '../../session/session-context.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { InvitePreviewCard } from '../../ui/invite-preview-card.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { NewPasswordForm } from './new-password-form.tsx'

const DEAD_LINK = 'This invitation link is invalid or has expired.'

function InvalidRegistrationLink({ detail }: { detail: string }) {
  return (
    <AuthCard title="Invalid registration link" subtitle={detail}>
      <p>Ask the owner of the buble that invited you to send a new invite.</p>
      <Link to="/login" className="btn btn-primary btn-block">
        Back to sign in
      </Link>
    </AuthCard>
  )
}

/** A dead link is said before the form (the server's words); any other failure leaves the form as it was, unnamed. */
const deadLinkMessage = (err: unknown): string | null =>
  err instanceof ApiError && err.code === 'TOKEN_INVALID' ? err.message || DEAD_LINK : null

/**
 * The sign-up page of an e-mail invite: names the buble and the inviter (the public preview of the
 * link), sets the password, and lands the new member inside that buble (issue 21 §4).
 */
export function CompleteRegistrationScreen() {
  useDocumentTitle('Complete your registration')
  const { api, session } = useServices()
  const navigate = useNavigate()
  const token = useSearchParams()[0].get('token')?.trim()
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<string | null>(null)
  const preview = useOnlineQuery<RegistrationPreview>(
    token || null,
    async (signal) =>
      RegistrationPreview.parse(
        await api.get(`/bubles/complete-registration?token=${encodeURIComponent(token!)}`, signal),
      ),
    { failure: deadLinkMessage },
  )

  if (!token) return <InvalidRegistrationLink detail="This page needs the link from your invitation email." />
  if (invalid) return <InvalidRegistrationLink detail={invalid} />
  if (preview.status === 'failed') return <InvalidRegistrationLink detail={preview.message} />

  const about = preview.status === 'ready' ? preview.data : null

  async function complete(password: string) {
    setError(null)
    try {
      const answer = await api.post('/bubles/complete-registration', { token, password })
      // The new member is in the buble that invited them: straight into it.
      const landing = landAfterSignIn(about?.buble ? `/bubles/${encodeURIComponent(about.buble.slug)}` : '/dashboard')
      session.signIn(answer)
      navigate(landing, { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TOKEN_INVALID') {
        setInvalid(err.message || DEAD_LINK)
      } else setError(messageOf(err, 'Failed to complete registration'))
    }
  }

  return (
    <AuthCard
      title="Welcome to Buble"
      subtitle={
        about?.buble
          ? `Choose a password to join ${about.buble.name}.`
          : 'Choose a password to finish setting up your account.'
      }
    >
      {about?.buble && <InvitePreviewCard bubleName={about.buble.name} inviterName={about.invited_by?.name ?? null} />}
      {about && (
        <p className="muted">
          Your account: <strong>{about.email}</strong>
        </p>
      )}
      <NewPasswordForm submitLabel="Complete registration" busyLabel="Saving…" onSubmit={complete} error={error} />
    </AuthCard>
  )
}
