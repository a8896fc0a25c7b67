/** Request and answer shapes of the buble and membership calls (CONTRACT §3.2). */

import { z } from 'zod'
import { Email } from './auth.ts'
import { LIMITS } from './constants.ts'
import { BUBLE_ROLES, PERMISSIONS, ROLE_DEFAULT_PERMISSIONS } from './permissions.ts'
import { hasControlCharacters, MIN_VISIBLE_NAME, stripInvisible, visibleLength } from './text.ts'
import { INITIAL_TOOLS, ToolKeySchema } from './tools.ts'

export const BUBLE_MESSAGES = {
  notAllowedToRename: 'You are not allowed to rename this Buble',
  onlyOwnerTools: 'Only the owner can add or remove tools',
  nameRequired: 'Buble name is required',
  nameTooLong: `Buble name must be at most ${LIMITS.bubleName} characters`,
  nameTooShort: `Buble name must be at least ${MIN_VISIBLE_NAME} characters`,
  nameControl: 'Buble name must not contain control characters',
  notFound: 'Buble not found',
  inviteInvalid: 'Invalid invite code or code has expired',
  alreadyMember: 'You are already a member of this Buble',
  ownerCannotLeave: 'The owner cannot leave a Buble. Transfer ownership to another member first, or delete the Buble.',
  leaveOthers: 'You can only leave a Buble yourself',
  codeRequired: 'Invite code is required',
} as const

/** A UUID in any case names the same row; rows are keyed by the lower-case form. */
export const Uuid = (message: string) => z.uuid({ error: message }).transform((id) => id.toLowerCase())

/** A client-chosen id (CONTRACT §2): a UUID, so an offline row keeps its id. */
export const ClientId = Uuid('id must be a UUID')

/**
 * A buble name: invisible characters dropped (text.ts `stripInvisible`), trimmed, at most 80
 * characters of which at least 2 visible, no control characters.
 */
export const BubleName = z
  .string({ error: BUBLE_MESSAGES.nameRequired })
  .overwrite(stripInvisible)
  .trim()
  .min(1, { error: BUBLE_MESSAGES.nameRequired, abort: true })
  .max(LIMITS.bubleName, BUBLE_MESSAGES.nameTooLong)
  .refine((name) => !hasControlCharacters(name), BUBLE_MESSAGES.nameControl)
  .refine((name) => visibleLength(name) >= MIN_VISIBLE_NAME, BUBLE_MESSAGES.nameTooShort)

export const CreateBubleBody = z.object({ id: ClientId.optional(), name: BubleName })
export type CreateBubleBody = z.infer<typeof CreateBubleBody>

/** A rename keeps the slug, so links keep working (CONTRACT §6). */
export const RenameBubleBody = z.object({ name: BubleName })
export type RenameBubleBody = z.infer<typeof RenameBubleBody>

export const BubleRoleSchema = z.enum(BUBLE_ROLES)
export const PermissionSchema = z.enum(PERMISSIONS)

/** A member as lists and headers show them. */
export const MemberRef = z.object({ id: z.string(), name: z.string(), avatar_url: z.string().nullable() })
export type MemberRef = z.infer<typeof MemberRef>

export const Buble = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  created_at: z.string(),
  owner_id: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  member_count: z.number().int(),
  members: z.array(MemberRef),
  my_role: BubleRoleSchema,
  my_permissions: z.array(PermissionSchema),
  /** The overview tools that are on, in display order (an addition to CONTRACT's shape, so devices show them offline). */
  tools: z.array(ToolKeySchema),
})
export type Buble = z.infer<typeof Buble>

/** A buble just made, as its owner sees it: the server's answer, and the row a device shows before that answer. */
export function newOwnedBuble(args: {
  id: string
  slug: string
  name: string
  created_at: string
  owner: { id: string; name: string; email: string; avatar_url: string | null }
}): Buble {
  const { owner } = args
  return {
    id: args.id,
    slug: args.slug,
    name: args.name,
    created_at: args.created_at,
    owner_id: owner.id,
    owner: { id: owner.id, name: owner.name, email: owner.email },
    member_count: 1,
    members: [{ id: owner.id, name: owner.name, avatar_url: owner.avatar_url }],
    my_role: 'owner',
    my_permissions: [...ROLE_DEFAULT_PERMISSIONS.owner],
    tools: [...INITIAL_TOOLS],
  }
}

export const Member = z.object({
  user_id: z.string(),
  role: BubleRoleSchema,
  permissions: z.array(PermissionSchema),
  joined_at: z.string(),
  user: z.object({ name: z.string(), email: z.string(), avatar_url: z.string().nullable() }),
  /**
   * Issue 24 §2: set while a mute is stored (in force while now < muted_until; 9999-12-31 is "until
   * unmuted", shared/mutes.ts), left out otherwise, so the device knows it offline.
   */
  muted_until: z.string().optional(),
})
export type Member = z.infer<typeof Member>

/** The characters of invite codes: no 0/O, 1/I/L or U, so a code read aloud or copied by hand survives. */
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ'
export const INVITE_CODE_LENGTH = 10
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** Normalises a typed invite code: trimmed, upper-cased, without spaces or dashes. */
export const normalizeInviteCode = (code: string): string =>
  code
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '')

export const InviteCode = z
  .string({ error: BUBLE_MESSAGES.codeRequired })
  .transform(normalizeInviteCode)
  // Any other length is simply a code that does not exist: 410, as for every unknown code.
  .pipe(z.string().min(1, BUBLE_MESSAGES.codeRequired))

export const CreateInviteBody = z.object({ email: Email.optional() })
export type CreateInviteBody = z.infer<typeof CreateInviteBody>

export const Invite = z.object({ code: z.string(), expires_at: z.string() })
export type Invite = z.infer<typeof Invite>

/**
 * `GET /api/bubles/invites/:code` (public): what a live code lets its holder see before joining. Only
 * the buble's name (its avatar is drawn from the name) and the inviter's name: nothing a stranger
 * holding no code could not be told by the person who gave it. `invited_by` is null when that account is gone.
 */
export const InvitePreview = z.object({
  buble: z.object({ name: z.string() }),
  invited_by: z.object({ name: z.string() }).nullable(),
  expires_at: z.string(),
})
export type InvitePreview = z.infer<typeof InvitePreview>

/** Whether a typed or linked code can be a code at all (the alphabet and length): anything else is simply unknown. */
export const isInviteCodeShape = (code: string): boolean =>
  code.length === INVITE_CODE_LENGTH && [...code].every((char) => INVITE_ALPHABET.includes(char))

/**
 * `GET /api/bubles/complete-registration?token=…` (public): the buble and inviter an e-mail invite's
 * registration link is for, and the account's address. The slug is where the new member lands.
 */
export const RegistrationPreview = z.object({
  email: z.string(),
  buble: z.object({ name: z.string(), slug: z.string() }).nullable(),
  invited_by: z.object({ name: z.string() }).nullable(),
})
export type RegistrationPreview = z.infer<typeof RegistrationPreview>

/** The most active codes `GET /api/bubles/:id/invites` answers (the newest): codes without e-mail are not rate limited. */
export const ACTIVE_INVITES_LIMIT = 100

/**
 * An active code (unused, unexpired) as the buble's inviters see it. `email`: the address it was
 * mailed to, which alone may use it; `created_by` is null when that account no longer exists.
 */
export const ActiveInvite = z.object({
  code: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  created_by: MemberRef.nullable(),
})
export type ActiveInvite = z.infer<typeof ActiveInvite>

/** `GET /api/bubles/:id/invites`: the buble's active codes, newest first. */
export const ActiveInvites = z.object({ invites: z.array(ActiveInvite) })
export type ActiveInvites = z.infer<typeof ActiveInvites>

/** `/api/bubles/:idOrSlug`: a UUID is an id, anything else a slug. */
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
