/** Uploading one image to a buble (`POST /api/uploads/image`, online only): the wall's and the chat's. */

import { UploadResponse } from '@buble/shared/auth'
import { LIMITS } from '@buble/shared/constants'
import type { ApiClient } from '../session/api-client.ts'

/** The image types the server takes for posts and chat images (CONTRACT §3.3). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const

/** What the wall's and the chat's composers say about an image (spec part 2 §8). */
export const IMAGE_TEXTS = {
  uploadFailed: 'Upload failed',
  imageOffline: 'Images can be added when you are online.',
  imageNotSynced: 'Images can be added once this Buble has reached the server.',
  imageType: 'Choose a JPEG, PNG, WebP or GIF image',
  imageTooLarge: 'The image must be 10 MB or smaller',
} as const

/** Why a picked file cannot be uploaded as an image, or null when it can. */
export function imageProblem(file: File): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_TEXTS.imageType
  if (file.size > LIMITS.imageBytes) return IMAGE_TEXTS.imageTooLarge
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
    console.warn(IMAGE_TEXTS.uploadFailed, err)
    return null
  }
}
