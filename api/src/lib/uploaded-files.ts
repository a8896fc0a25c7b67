/**
 * What the features that name uploaded files (wall, stories, chat) ask of uploads: whether a file
 * may be shown in a buble, and forgetting files. The uploads feature gives it; app.ts hands it out.
 */

import type { Executor } from '../db/client.ts'

export interface UploadedFiles {
  /** True when `url` is an image `ownerId` uploaded into `bubleId`: only its uploader may attach a file. */
  isBubleImage(exec: Executor, url: string, bubleId: string, ownerId: string): Promise<boolean>
  /** True when `url` is a story file (image or video) `ownerId` uploaded into `bubleId`. */
  isBubleStoryFile(
    exec: Executor,
    url: string,
    bubleId: string,
    ownerId: string,
    mediaType: 'image' | 'video',
  ): Promise<boolean>
  /** Removes stored files once the rows naming them are gone (after commit). */
  forgetFiles(urls: readonly (string | null | undefined)[]): Promise<void>
}
