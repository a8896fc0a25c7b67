/** Uploading one image to a buble (`POST /api/uploads/image`, online only): the wall's and the chat's. */

import { UploadResponse } from '@buble/shared/auth'
import { LIMITS } from '@buble/shared/constants'
import { IMAGE_TYPES, WALL_TEXTS } from '../features/wall/wall-texts.ts'
import type { ApiClient } from '../session/api-client.ts'

/** Why a picked file cannot be uploaded as an image, or null when it can. */
export function imageProblem(file: File): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return WALL_TEXTS.imageType
  if (file.size > LIMITS.imageBytes) return WALL_TEXTS.imageTooLarge
  return null
}

/** The uploaded image's URL, or null when the upload failed (logged as 'Upload failed'). */
export async function uploadImage(api: ApiClient, bubleId: string, image: File): Promise<string | null> {
  const form = new FormData()
  form.append('file', image)
  form.append('buble_id', bubleId)
  try {
    return UploadResponse.parse(await api.upload('/uploads/image', form)).url
  } catch (err) {
    console.warn(WALL_TEXTS.uploadFailed, err)
    return null
  }
}
