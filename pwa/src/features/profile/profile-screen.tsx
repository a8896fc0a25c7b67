import type { Profile } from '@buble/shared/auth'
import { lazy, Suspense, useState } from 'react'
import { useSignOut } from '../../data/sign-out.ts'
import { Alert } from '../../ui/alert.tsx'
import { Avatar } from '../../ui/avatar.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { UnsyncedChangesDialog } from '../../ui/unsynced-changes-dialog.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { useFlash } from '../../ui/use-flash.ts'
import { AccountDeletion } from './account-deletion.tsx'
import { CalendarSection } from './calendar-section.tsx'
import { ChangePasswordModal } from './change-password-modal.tsx'
import { DataExportSection } from './data-export.tsx'
import { NotificationsSection } from './notifications-section.tsx'
import { ProfileEditForm } from './profile-edit-form.tsx'
import { SessionsSection } from './sessions-section.tsx'
import { useProfile } from './use-profile.ts'

// Passkeys load with their section: the profile's own chunk carries none of them.
const PasskeysSection = lazy(() => import('./passkeys-section.tsx'))

const ROLE_LABEL = { user: 'Regular User', admin: 'Administrator' } as const

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' })

export function ProfileScreen() {
  useDocumentTitle('Profile')
  const load = useProfile()

  if (load.status === 'loading') {
    return (
      <div className="page">
        <Spinner label="Loading your profile…" />
      </div>
    )
  }
  if (load.status === 'failed') {
    return (
      <div className="page">
        <div className="empty-state">
          <h1>Failed to Load Profile</h1>
          <p>{load.message}</p>
          <button type="button" className="btn btn-primary" onClick={load.reload}>
            Try Again
          </button>
        </div>
      </div>
    )
  }
  return <ProfileView profile={load.data} update={(patch) => load.update((profile) => ({ ...profile, ...patch }))} />
}

function ProfileView({ profile, update }: { profile: Profile; update: (patch: Partial<Profile>) => void }) {
  const [editing, setEditing] = useState(false)
  const [changingPassword, setChangingPassword] = useState(false)
  const [notice, showNotice] = useFlash()
  // A saved password says so beside the button the focus comes back to, not at the top of a long page.
  const [passwordNotice, showPasswordNotice] = useFlash()
  const { signOut, unsynced, keepSignedIn } = useSignOut()

  return (
    <div className="page page-narrow">
      <div className="page-head">
        <h1>Profile</h1>
      </div>
      {notice && <Alert kind="success">{notice}</Alert>}

      {editing ? (
        <ProfileEditForm
          profile={profile}
          onCancel={() => setEditing(false)}
          onSaved={(user) => {
            update(user)
            setEditing(false)
            showNotice('Profile updated successfully')
          }}
        />
      ) : (
        <section className="card profile-card" aria-label="Your profile">
          <div className="profile-identity">
            <Avatar name={profile.name} url={profile.avatar_url} size={96} />
            <div>
              <h2 className="profile-name">{profile.name}</h2>
              <span className={`badge ${profile.role === 'admin' ? 'badge-accent' : ''}`}>
                {ROLE_LABEL[profile.role]}
              </span>
            </div>
          </div>
          <dl className="details">
            <div>
              <dt>Email</dt>
              <dd>
                {profile.email}{' '}
                {profile.email_verified ? (
                  <span className="badge badge-success">Verified</span>
                ) : (
                  <span className="badge badge-warning">Not verified</span>
                )}
                <span className="field-hint">Your email address cannot be changed.</span>
              </dd>
            </div>
            <div>
              <dt>Bio</dt>
              <dd>
                {profile.bio ? <span className="bio">{profile.bio}</span> : <span className="muted">No bio yet</span>}
              </dd>
            </div>
            <div>
              <dt>Member since</dt>
              <dd>{formatDate(profile.created_at)}</dd>
            </div>
            <div>
              <dt>User ID</dt>
              <dd>
                <code>{profile.id}</code>
              </dd>
            </div>
          </dl>
          <div className="form-actions form-actions-start">
            <button type="button" className="btn btn-primary" onClick={() => setEditing(true)}>
              Edit Profile
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setChangingPassword(true)}>
              Change Password
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => void signOut()}>
              Sign Out
            </button>
          </div>
          {passwordNotice && <Alert kind="success">{passwordNotice}</Alert>}
        </section>
      )}

      <Suspense fallback={null}>
        <PasskeysSection email={profile.email} />
      </Suspense>

      <NotificationsSection />

      <SessionsSection />

      <CalendarSection />

      <DataExportSection />

      <AccountDeletion
        deletion={profile.deletion}
        onChange={(deletion) => update({ deletion })}
        onMessage={showNotice}
      />

      {unsynced !== null && (
        <UnsyncedChangesDialog
          count={unsynced}
          onStay={keepSignedIn}
          onSignOut={() => void signOut({ discardUnsynced: true })}
        />
      )}

      {changingPassword && (
        <ChangePasswordModal
          onClose={() => setChangingPassword(false)}
          onChanged={(message) => {
            setChangingPassword(false)
            showPasswordNotice(message)
          }}
        />
      )}
    </div>
  )
}
