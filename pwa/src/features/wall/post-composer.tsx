import { LIMITS } from '@buble/shared/constants'
import { PostContent } from '@buble/shared/wall'
import { type ChangeEvent, type FormEvent, useEffect, useId, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { useOnline } from '../../data/sync-status.ts'
import type { WallActions } from '../../data/wall.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { MentionTextarea } from '../../ui/mention-textarea.tsx'
import { IMAGE_TEXTS, IMAGE_TYPES, imageProblem, uploadImage } from '../../ui/upload-image.ts'
import { WALL_TEXTS } from './wall-texts.ts'

/** An object URL for a picked file, revoked when it changes. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return setUrl(null)
    const created = URL.createObjectURL(file)
    setUrl(created)
    return () => URL.revokeObjectURL(created)
  }, [file])
  return url
}

/**
 * Writes a post. The text is queued at once, online or not; an image is uploaded first, which
 * needs a connection, so offline the image button waits and says why.
 */
export function PostComposer({ buble, actions }: { buble: LocalBuble; actions: WallActions }) {
  const api = useApi()
  const online = useOnline()
  const id = useId()
  const [text, setText] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [picker, setPicker] = useState(0)
  const preview = usePreview(file)
  // A buble made offline is not on the server yet, so it cannot own an upload.
  const imageBlocked = !online ? IMAGE_TEXTS.imageOffline : buble._pending ? IMAGE_TEXTS.imageNotSynced : null

  function pick(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0] ?? null
    setError(null)
    if (!picked) return
    const problem = imageProblem(picked)
    if (problem) return setError(problem)
    setFile(picked)
  }

  function clearImage() {
    setFile(null)
    // A fresh input, so the same file can be picked again.
    setPicker((n) => n + 1)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const checked = PostContent.safeParse(text)
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? WALL_TEXTS.createPost)
    setError(null)
    setBusy(true)
    try {
      const imageUrl = file ? await uploadImage(api, buble.id, file) : null
      // Text and image stay in the form, to try again.
      if (file && !imageUrl) return setError(IMAGE_TEXTS.uploadFailed)
      await actions.createPost({
        buble_id: buble.id,
        content: checked.data,
        ...(imageUrl ? { image_url: imageUrl } : {}),
      })
      // What was typed while it was being sent stays: only the text that went is cleared.
      setText((current) => (current === text ? '' : current))
      clearImage()
    } catch (err) {
      console.error(WALL_TEXTS.createPost, err)
      setError(WALL_TEXTS.createPost)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="card composer" onSubmit={(event) => void submit(event)} noValidate aria-label="New post">
      <label htmlFor={`${id}-text`} className="visually-hidden">
        Write a post
      </label>
      <MentionTextarea
        id={`${id}-text`}
        className="text-input"
        rows={3}
        maxLength={LIMITS.post}
        placeholder="Share something with your Buble…"
        value={text}
        onValueChange={setText}
      />
      {preview && (
        <div className="composer-image">
          <img src={preview} alt="Preview of what you are posting" />
        </div>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      <div className="composer-foot">
        <div className="composer-image-controls">
          <label className={`btn btn-secondary btn-small file-button${imageBlocked ? ' is-disabled' : ''}`}>
            {file ? 'Change image' : 'Add image'}
            <input
              key={picker}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              className="visually-hidden"
              disabled={imageBlocked !== null || busy}
              aria-describedby={imageBlocked ? `${id}-image-hint` : undefined}
              onChange={pick}
            />
          </label>
          {file && (
            <button type="button" className="link-button" onClick={clearImage} disabled={busy}>
              Remove image
            </button>
          )}
          {imageBlocked && (
            <span className="field-hint" id={`${id}-image-hint`}>
              {imageBlocked}
            </span>
          )}
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy || text.trim() === ''}>
          {busy ? 'Posting…' : 'Post'}
        </button>
      </div>
    </form>
  )
}
