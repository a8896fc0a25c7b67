/**
 * The join page of an invite link, /join/CODE (issue 21 §4): the buble's avatar and name and who
 * invited you, from the public preview; signed in, Join asks the spec's confirmation and lands in the
 * buble; signed out, sign in or sign up first and come back here. Open to everyone: the page is the
 * link's, whoever opens it.
 */

import { BUBLE_MESSAGES, Buble, InviteCode, InvitePreview } from '@buble/shared/bubles'
import { type ReactNode, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { bublePath } from '../../data/bubles.ts'
import { useOnlineQuery } from '../../data/online.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { rememberReturn } from '../../session/return-to.ts'
import { useApi, useSession } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { formatMoment } from '../../ui/format.ts'
import { InvitePreviewCard } from '../../ui/invite-preview-card.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { JOIN_TEXTS } from './invite-texts.ts'
import { JoinConfirmDialog } from './join-confirm.tsx'
import { previewFailure, previewPath } from './join-invite.ts'
import './invites.css'

/** The join page's card: the centred card of the signed-out pages. */
const JoinCard = ({ children }: { children: ReactNode }) => <AuthCard title={JOIN_TEXTS.pageTitle}>{children}</AuthCard>

export function JoinScreen() {
  useDocumentTitle(JOIN_TEXTS.pageTitle)
  const api = useApi()
  const initialized = useSession((state) => state.isInitialized)
  const signedIn = useSession((state) => state.isAuthenticated)
  const parsed = InviteCode.safeParse(useParams().code ?? '')
  const code = parsed.success ? parsed.data : null
  const preview = useOnlineQuery<InvitePreview>(
    code,
    async (signal) => InvitePreview.parse(await api.get(previewPath(code!), signal)),
    {
      failure: (err) => previewFailure(err).message,
      offline: JOIN_TEXTS.offline,
    },
  )

  if (!initialized)
    return (
      <JoinCard>
        <Spinner label={JOIN_TEXTS.checkingCode} />
      </JoinCard>
    )
  if (code === null) return <DeadInvite signedIn={signedIn} />
  if (preview.status === 'loading')
    return (
      <JoinCard>
        <Spinner label={JOIN_TEXTS.checkingCode} />
      </JoinCard>
    )
  if (preview.status === 'failed') {
    if (preview.message === BUBLE_MESSAGES.inviteInvalid) return <DeadInvite signedIn={signedIn} />
    return (
      <JoinCard>
        <Alert kind="error">{preview.message}</Alert>
        <button type="button" className="btn btn-secondary btn-block" onClick={preview.reload}>
          {JOIN_TEXTS.retry}
        </button>
      </JoinCard>
    )
  }
  const { data } = preview
  return (
    <JoinCard>
      <InvitePreviewCard bubleName={data.buble.name} inviterName={data.invited_by?.name ?? null} />
      <p className="muted">
        {JOIN_TEXTS.expires} {formatMoment(data.expires_at)}
      </p>
      {signedIn ? <JoinAction code={code} preview={data} /> : <SignInFirst code={code} />}
    </JoinCard>
  )
}

function DeadInvite({ signedIn }: { signedIn: boolean }) {
  return (
    <JoinCard>
      <Alert kind="error">{BUBLE_MESSAGES.inviteInvalid}</Alert>
      <p>{JOIN_TEXTS.deadHint}</p>
      <Link to={signedIn ? '/dashboard' : '/login'} className="btn btn-primary btn-block">
        {signedIn ? JOIN_TEXTS.toDashboard : JOIN_TEXTS.toSignIn}
      </Link>
    </JoinCard>
  )
}

function SignInFirst({ code }: { code: string }) {
  const back = () => rememberReturn(`/join/${code}`)
  return (
    <>
      <p>{JOIN_TEXTS.signedOutHint}</p>
      <div className="join-actions">
        <Link to="/login" className="btn btn-primary btn-block" onClick={back}>
          {JOIN_TEXTS.signInToJoin}
        </Link>
        <Link to="/register" className="btn btn-secondary btn-block" onClick={back}>
          {JOIN_TEXTS.signUpToJoin}
        </Link>
      </div>
    </>
  )
}

/** Join, the spec's confirmation, then the buble. The pull that follows brings its content to the device. */
function JoinAction({ code, preview }: { code: string; preview: InvitePreview }) {
  const api = useApi()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function join() {
    if (!navigator.onLine) return setError(JOIN_TEXTS.joinOffline)
    setBusy(true)
    setError(null)
    try {
      const buble = Buble.parse(await api.post(`/bubles/invites/${encodeURIComponent(code)}/accept`))
      navigate(bublePath(buble), { replace: true })
    } catch (err) {
      setBusy(false)
      setConfirming(false)
      if (err instanceof TypeError) setError(JOIN_TEXTS.joinOffline)
      else if (err instanceof ApiError && err.status === 410) setError(BUBLE_MESSAGES.inviteInvalid)
      else setError(messageOf(err, BUBLE_MESSAGES.inviteInvalid))
    }
  }

  return (
    <>
      {error && <Alert kind="error">{error}</Alert>}
      <div className="join-actions">
        <button
          type="button"
          className="btn btn-primary btn-block"
          onClick={() => {
            setError(null)
            setConfirming(true)
          }}
          aria-haspopup="dialog"
        >
          {JOIN_TEXTS.join}
        </button>
        <Link to="/dashboard" className="btn btn-secondary btn-block">
          {JOIN_TEXTS.toDashboard}
        </Link>
      </div>
      {confirming && (
        <JoinConfirmDialog
          code={code}
          preview={preview}
          busy={busy}
          onConfirm={() => void join()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  )
}
