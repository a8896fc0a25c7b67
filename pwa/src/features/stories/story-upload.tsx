import { MemberRef } from '@buble/shared/bubles'
import { LIMITS } from '@buble/shared/constants'
import { MEDIA_TYPES, STORY_DEFAULT_SECONDS, type Story } from '@buble/shared/wall'
import { type ChangeEvent, useState } from 'react'
import { v7 as uuidv7 } from 'uuid'
import { z } from 'zod'
import { useRememberStory } from '../../data/wall.ts'
import { useApi } from '../../session/session-context.tsx'
import { STORY_IMAGE_TYPES, STORY_TEXTS, STORY_VIDEO_TYPES } from './story-texts.ts'

const StoryUploadAnswer = z.object({ url: z.string(), media_type: z.enum(MEDIA_TYPES).optional() })
const StoryAnswer = z.object({
  id: z.string(),
  buble_id: z.string(),
  media_url: z.string(),
  media_type: z.enum(MEDIA_TYPES),
  author: MemberRef,
  duration_seconds: z.number(),
  created_at: z.string(),
  expires_at: z.string(),
}) satisfies z.ZodType<Story>

const isOneOf = (types: readonly string[], type: string) => types.includes(type)

/** Why a picked file cannot be a story, or null when it can. */
function refusal(file: File): string | null {
  if (isOneOf(STORY_IMAGE_TYPES, file.type)) return file.size > LIMITS.imageBytes ? STORY_TEXTS.imageTooLarge : null
  if (isOneOf(STORY_VIDEO_TYPES, file.type)) return file.size > LIMITS.videoBytes ? STORY_TEXTS.videoTooLarge : null
  return STORY_TEXTS.wrongType
}

interface StoryUploadProps {
  bubleId: string
  /** Why sharing is not possible now (offline, say), or null; the widget shows it under `hintId`. */
  blocked: string | null
  hintId: string
  onError: (message: string | null) => void
}

/**
 * Shares a photo or a short video for 24 hours: the file is uploaded, then the story is created
 * with its address (spec part 2 §4); both need a connection. The created story is stored on the
 * device at once, so it shows before the next pull brings it.
 */
export function StoryUpload({ bubleId, blocked, hintId, onError }: StoryUploadProps) {
  const api = useApi()
  const remember = useRememberStory()
  const [busy, setBusy] = useState(false)
  const [picker, setPicker] = useState(0)

  async function upload(file: File): Promise<z.infer<typeof StoryUploadAnswer> | null> {
    try {
      const form = new FormData()
      form.append('file', file)
      form.append('buble_id', bubleId)
      return StoryUploadAnswer.parse(await api.upload('/uploads/story', form))
    } catch (err) {
      console.warn(STORY_TEXTS.uploadFailed, err)
      return null
    }
  }

  async function share(file: File) {
    const refused = refusal(file)
    if (refused) return onError(refused)
    onError(null)
    setBusy(true)
    try {
      const uploaded = await upload(file)
      if (!uploaded) return onError(STORY_TEXTS.uploadFailed)
      const answer = await api.post<unknown>('/stories', {
        id: uuidv7(),
        buble_id: bubleId,
        media_url: uploaded.url,
        media_type: uploaded.media_type ?? (file.type.startsWith('video/') ? 'video' : 'image'),
        // How long an image shows; a video plays to its end.
        duration_seconds: STORY_DEFAULT_SECONDS,
      })
      await remember(StoryAnswer.parse(answer))
    } catch (err) {
      console.warn(STORY_TEXTS.createFailed, err)
      onError(STORY_TEXTS.createFailed)
    } finally {
      setBusy(false)
      // A fresh input, so the same file can be picked again.
      setPicker((n) => n + 1)
    }
  }

  function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    if (file) void share(file)
  }

  return (
    <label className={`story-ring story-add${blocked || busy ? ' is-disabled' : ''}`}>
      <span className="story-ring-avatar story-add-icon" aria-hidden="true" />
      <span className="story-ring-name">{busy ? 'Uploading…' : 'Add story'}</span>
      <input
        key={picker}
        type="file"
        className="visually-hidden"
        accept={[...STORY_IMAGE_TYPES, ...STORY_VIDEO_TYPES].join(',')}
        disabled={blocked !== null || busy}
        aria-describedby={blocked ? hintId : undefined}
        onChange={pick}
      />
    </label>
  )
}
