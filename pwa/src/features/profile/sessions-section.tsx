/**
 * The profile's "Devices signed in" section: each session of the account with its device, place and
 * last use, this one marked; "Sign out" for another, "Sign out everywhere else". Online only: the
 * sessions live on the server (api/src/features/sessions). It comes with the profile's own chunk,
 * which loads lazily: a chunk of its own would add its name to every first load's preload map.
 */

import { type DeviceSession, DeviceSessionList, deviceLabel } from '@buble/shared/sessions'
import { useOnlineQuery } from '../../data/online.ts'
import { ApiError } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useConfirm } from '../../ui/use-confirm.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { SESSIONS_TEXTS as T } from './sessions-texts.ts'
import './sessions.css'

export function SessionsSection() {
  const api = useApi()
  const load = useOnlineQuery(
    'device-sessions',
    async (signal) => DeviceSessionList.parse(await api.get('/users/sessions', signal)),
    { failure: T.failed, offline: T.offline, retryOnce: true },
  )
  return (
    <section className="card sessions-section" aria-label={T.title}>
      <h2>{T.title}</h2>
      <p className="field-hint">{T.intro}</p>
      {load.status === 'loading' && <Spinner label={T.loading} />}
      {load.status === 'failed' && (
        <>
          <Alert kind="error">{load.message}</Alert>
          <button type="button" className="btn btn-secondary" onClick={load.reload}>
            {T.tryAgain}
          </button>
        </>
      )}
      {load.status === 'ready' && (
        <SessionList sessions={load.data} onEnded={(keep) => load.update((list) => list.filter(keep))} />
      )}
    </section>
  )
}

function SessionList({
  sessions,
  onEnded,
}: {
  sessions: DeviceSession[]
  onEnded: (keep: (session: DeviceSession) => boolean) => void
}) {
  const api = useApi()
  const { ask, dialog } = useConfirm()
  const [notice, showNotice] = useFlash()
  const now = Date.now()
  const others = sessions.filter((session) => !session.current)

  const signOut = (session: DeviceSession) => {
    const label = deviceLabel(session)
    ask({
      title: T.signOutTitle,
      body: <p>{T.signOutBody(label)}</p>,
      confirmLabel: T.signOut,
      busyLabel: T.signOutBusy,
      danger: true,
      failure: T.signOutFailed,
      run: async () => {
        // Gone already (signed out from elsewhere, or expired): what was asked is done.
        await api.delete(`/users/sessions/${session.id}`).catch((err: unknown) => {
          if (!(err instanceof ApiError && err.status === 404)) throw err
        })
        onEnded((kept) => kept.id !== session.id)
        showNotice(T.signedOut(label))
      },
    })
  }

  const signOutOthers = () =>
    ask({
      title: T.signOutOthersTitle,
      body: <p>{T.signOutOthersBody}</p>,
      confirmLabel: T.signOutOthers,
      busyLabel: T.signOutOthersBusy,
      danger: true,
      failure: T.signOutOthersFailed,
      run: async () => {
        await api.post('/users/sessions/end-others')
        onEnded((kept) => kept.current)
        showNotice(T.signedOutOthers)
      },
    })

  return (
    <>
      {notice && <Alert kind="success">{notice}</Alert>}
      <ul className="session-list">
        {sessions.map((session) => {
          const label = deviceLabel(session)
          return (
            <li key={session.id} className="session-item">
              <div className="session-main">
                <span className="session-device">{label}</span>
                {session.current && <span className="badge badge-success">{T.thisDevice}</span>}
              </div>
              <div className="session-meta muted">
                {session.place && <span>{session.place}</span>}
                {session.current ? (
                  <span>{T.activeNow}</span>
                ) : (
                  <span>
                    {T.lastUsed} <RelativeTime iso={session.last_used_at} now={now} />
                  </span>
                )}
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="btn btn-secondary btn-small session-sign-out"
                  aria-label={`${T.signOut}: ${label}`}
                  onClick={() => signOut(session)}
                >
                  {T.signOut}
                </button>
              )}
            </li>
          )
        })}
      </ul>
      {others.length === 0 ? (
        <p className="muted">{T.noOthers}</p>
      ) : (
        <button type="button" className="btn btn-secondary" onClick={signOutOthers}>
          {T.signOutOthers}
        </button>
      )}
      {dialog}
    </>
  )
}
