import { type Profile, UpdateProfileBody, UploadResponse, User } from '@buble/shared/auth'
import { LIMITS } from '@buble/shared/constants'
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Avatar } from '../../ui/avatar.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'

const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif']

interface ProfileEditFormProps {
  profile: Profile
  onSaved: (user: User) => void
  onCancel: () => void
}

export function ProfileEditForm({ profile, onSaved, onCancel }: ProfileEditFormProps) {
  const { api, session } = useServices()
  const [name, setName] = useState(profile.name)
  const [bio, setBio] = useState(profile.bio ?? '')
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  // Keyboard users land in the form that replaced the Edit button.
  useEffect(() => document.getElementById('profile-name')?.focus(), [])

  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return setPreview(null)
    const url = URL.createObjectURL(file)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [file])

  function pick(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0] ?? null
    setError(null)
    if (picked && !AVATAR_TYPES.includes(picked.type)) return setError('Choose a JPEG, PNG, WebP or GIF image')
    if (picked && picked.size > LIMITS.avatarBytes) return setError('The image must be 5 MB or smaller')
    setFile(picked)
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    const checked = UpdateProfileBody.safeParse({ name, bio: bio.trim() || null })
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? ERROR_TEXTS.updateProfile)
    setError(null)
    setBusy(true)
    let avatarUrl = profile.avatar_url
    if (file) {
      try {
        const form = new FormData()
        form.append('file', file)
        avatarUrl = UploadResponse.parse(await api.upload('/uploads/avatar', form)).url
      } catch (err) {
        setBusy(false)
        return setError(messageOf(err, 'Failed to upload avatar'))
      }
    }
    try {
      const body = { ...checked.data, ...(avatarUrl !== profile.avatar_url ? { avatar_url: avatarUrl } : {}) }
      const user = User.parse(await api.put('/users/profile', body))
      session.updateUser(user)
      onSaved(user)
    } catch (err) {
      setError(messageOf(err, ERROR_TEXTS.updateProfile))
      setBusy(false)
    }
  }

  return (
    <form className="card profile-form" onSubmit={save} noValidate>
      <h2 className="section-title">Edit profile</h2>
      {error && <Alert kind="error">{error}</Alert>}
      <div className="avatar-picker">
        <Avatar name={name || profile.name} url={profile.avatar_url} preview={preview} size={80} />
        <label className="btn btn-secondary btn-small file-button">
          {file ? 'Choose another photo' : 'Change photo'}
          <input type="file" accept={AVATAR_TYPES.join(',')} onChange={pick} className="visually-hidden" />
        </label>
        {file && <span className="muted">{file.name}</span>}
      </div>
      <Field
        label="Display name"
        required
        minLength={2}
        maxLength={LIMITS.userNameMax}
        value={name}
        onValue={setName}
      />
      <div className="field">
        <label htmlFor="profile-bio">Bio</label>
        <textarea
          id="profile-bio"
          rows={4}
          maxLength={LIMITS.bio}
          value={bio}
          onChange={(event) => setBio(event.target.value)}
          placeholder="A line or two about you"
        />
        <p className="field-hint">
          {bio.length}/{LIMITS.bio}
        </p>
      </div>
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  )
}
