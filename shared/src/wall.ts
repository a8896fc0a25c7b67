/** The wall and stories (CONTRACT §3.3, spec part 2 §2–§5, §9): shapes, bodies and constants for server and client. */

import { z } from 'zod'
import { ClientId, type MemberRef, Uuid } from './bubles.ts'
import { LIMITS } from './constants.ts'

/** Spec part 2 §9. */
export const WALL_PAGE_SIZE = 10
export const WALL_MAX_PAGE_SIZE = 50
export const TICKER_SIZE = 5
/** Issue 23 §5: at most this many posts of a buble are pinned at once. */
export const MAX_PINNED_POSTS = 3
/** Stories live 24 h (CONTRACT §3.3). */
export const STORY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** How long an image story shows when its author gives no duration, and the bounds of what they may give. */
export const STORY_DEFAULT_SECONDS = 5
export const STORY_MAX_SECONDS = 60

export const REACTION_TYPES = ['like', 'love', 'laugh', 'wow', 'sad', 'angry'] as const
export const ReactionTypeSchema = z.enum(REACTION_TYPES, {
  error: `reactionType must be one of ${REACTION_TYPES.join(', ')}`,
})
export type ReactionType = z.infer<typeof ReactionTypeSchema>

/** Who reacted how: user id → their reaction types; and the count per type. */
export type Reactions = Record<string, ReactionType[]>
export type ReactionsSummary = Partial<Record<ReactionType, number>>

export const WALL_MESSAGES = {
  contentRequired: 'Content is required',
  postTooLong: `A post may be at most ${LIMITS.post} characters`,
  commentTooLong: `A comment may be at most ${LIMITS.comment} characters`,
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  storyNotFound: 'Story not found',
  onlyAuthorEdits: 'Only the author can edit this',
  notAllowedToDelete: 'You may not delete this',
  badLink: 'link_url must be an http or https address',
  badMedia: 'media_url must be a file uploaded to this buble',
  notAllowedToPin: 'You may not pin posts in this Buble',
  tooManyPins: `Only ${MAX_PINNED_POSTS} posts can be pinned. Unpin one first.`,
} as const

/** Trimmed text that must not be empty (spec part 2 §5). */
const Content = (max: number, tooLong: string) =>
  z
    .string({ error: WALL_MESSAGES.contentRequired })
    .trim()
    .min(1, { error: WALL_MESSAGES.contentRequired })
    .max(max, { error: tooLong })

export const PostContent = Content(LIMITS.post, WALL_MESSAGES.postTooLong)
export const CommentContent = Content(LIMITS.comment, WALL_MESSAGES.commentTooLong)

/** An uploaded file's address as the upload call answered it. */
export const UploadUrl = z
  .string()
  .max(300)
  .regex(/^\/api\/uploads\/secure\/[A-Za-z0-9_.-]+$/, { error: 'image_url must be a file uploaded to Buble' })

export const LinkUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), { error: WALL_MESSAGES.badLink })

export const CreatePostBody = z.object({
  id: ClientId.optional(),
  content: PostContent,
  image_url: UploadUrl.nullish(),
  link_url: LinkUrl.nullish(),
})
export type CreatePostBody = z.infer<typeof CreatePostBody>

export const UpdatePostBody = z.object({ content: PostContent })
export const CreateCommentBody = z.object({ id: ClientId.optional(), content: CommentContent })
export const UpdateCommentBody = z.object({ content: CommentContent })
export const ReactionBody = z.object({ reactionType: ReactionTypeSchema })

export const WallPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(WALL_MAX_PAGE_SIZE).default(WALL_PAGE_SIZE),
})
export const LatestQuery = z.object({
  limit: z.coerce.number().int().min(1).max(WALL_MAX_PAGE_SIZE).default(TICKER_SIZE),
})

export const MEDIA_TYPES = ['image', 'video'] as const
/** `POST /api/uploads/story`: CONTRACT's `{url}`, and which kind of file the bytes were judged to be. */
export const StoryUploadResponse = z.object({ url: z.string(), media_type: z.enum(MEDIA_TYPES) })
export const CreateStoryBody = z.object({
  id: ClientId.optional(),
  buble_id: Uuid('buble_id must be a UUID'),
  media_url: UploadUrl,
  media_type: z.enum(MEDIA_TYPES, { error: 'media_type must be image or video' }),
  duration_seconds: z.coerce
    .number({ error: 'duration_seconds must be a number' })
    .int()
    .min(1)
    .max(STORY_MAX_SECONDS)
    .default(STORY_DEFAULT_SECONDS),
})
export type CreateStoryBody = z.infer<typeof CreateStoryBody>

export interface Post {
  id: string
  buble_id: string
  content: string
  author_id: string
  author_name: string
  author: MemberRef
  created_at: string
  is_edited: boolean
  image_url: string | null
  link_url: string | null
  link_title: string | null
  link_description: string | null
  link_image: string | null
  reactions: Reactions
  reactionsSummary: ReactionsSummary
  commentsCount: number
  /** When the post was pinned (issue 23 §5), or null; pinned posts lead the wall, the newest pin first. */
  pinned_at: string | null
}

export interface Comment {
  id: string
  post_id: string
  /** An addition to CONTRACT's shape: devices file comments by buble. */
  buble_id: string
  content: string
  author: MemberRef
  author_name: string
  created_at: string
  isEdited: boolean
}

export interface Story {
  id: string
  buble_id: string
  media_url: string
  media_type: (typeof MEDIA_TYPES)[number]
  author: MemberRef
  duration_seconds: number
  created_at: string
  expires_at: string
}

/** The first http(s) address in a text, without trailing punctuation; what a post's preview is made of. */
export function firstUrl(text: string): string | null {
  const match = /\bhttps?:\/\/[^\s<>"']+/i.exec(text)
  if (!match) return null
  return match[0].replace(/[).,;:!?\]]+$/, '')
}

/** Counts per type, from who reacted how. */
export function summarise(reactions: Reactions): ReactionsSummary {
  const summary: ReactionsSummary = {}
  for (const types of Object.values(reactions)) for (const type of types) summary[type] = (summary[type] ?? 0) + 1
  return summary
}
