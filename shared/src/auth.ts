/** Request and answer shapes of the auth and account calls (CONTRACT §3.1). */

import { z } from 'zod'
import { LIMITS } from './constants.ts'
import { adminPasswordProblem, strongPasswordProblem } from './password.ts'
import {
  hasControlCharacters,
  isEmailLike,
  MIN_VISIBLE_NAME,
  normalizeEmail,
  stripInvisible,
  visibleLength,
} from './text.ts'

const required = (field: string) => ({ error: `${field} is required` })

/** An e-mail address, trimmed and lower-cased, that looks like an address. */
export const Email = z
  .string(required('Email'))
  .transform(normalizeEmail)
  .refine((email) => email.length > 0, 'Email is required')
  .refine(isEmailLike, 'Please enter a valid email address')

const NAME_TOO_SHORT = `Name must be at least ${LIMITS.userNameMin} characters`

/**
 * A display name: invisible characters dropped (text.ts `stripInvisible`), trimmed, 2–80 characters
 * of which at least 2 visible, no control characters.
 */
export const UserName = z
  .string(required('Name'))
  .overwrite(stripInvisible)
  .trim()
  .min(LIMITS.userNameMin, { error: NAME_TOO_SHORT, abort: true })
  .max(LIMITS.userNameMax, `Name must be at most ${LIMITS.userNameMax} characters`)
  .refine((name) => !hasControlCharacters(name), 'Name must not contain control characters')
  .refine((name) => visibleLength(name) >= MIN_VISIBLE_NAME, NAME_TOO_SHORT)

/** A self-chosen password: the strong rule, first failure reported. */
export const StrongPassword = z.string(required('Password')).superRefine((pw, ctx) => {
  const problem = strongPasswordProblem(pw)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** A password set by a platform admin: at least 6 characters. */
export const AdminPassword = z.string(required('Password')).superRefine((pw, ctx) => {
  const problem = adminPasswordProblem(pw)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

const Token = z.string(required('Token')).trim().min(1, 'Token is required').max(512)

export const RegisterBody = z.object({ name: UserName, email: Email, password: StrongPassword })
export type RegisterBody = z.infer<typeof RegisterBody>

export const LoginBody = z.object({
  email: Email,
  password: z.string(required('Password')).min(1, 'Password is required').max(1024),
})
export type LoginBody = z.infer<typeof LoginBody>

export const EmailBody = z.object({ email: Email })
export type EmailBody = z.infer<typeof EmailBody>

export const TokenBody = z.object({ token: Token })
export type TokenBody = z.infer<typeof TokenBody>

export const ResetPasswordBody = z.object({ token: Token, newPassword: StrongPassword })
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>

export const CompleteRegistrationBody = z.object({ token: Token, password: StrongPassword })
export type CompleteRegistrationBody = z.infer<typeof CompleteRegistrationBody>

export const ChangePasswordBody = z.object({
  currentPassword: z.string(required('Current password')).min(1, 'Current password is required').max(1024),
  newPassword: StrongPassword,
})
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>

/** Profile edits; unknown keys (an `email`, say) are refused, since the address cannot change. */
export const UpdateProfileBody = z.strictObject(
  {
    name: UserName.optional(),
    bio: z.string().trim().max(LIMITS.bio, `Bio must be at most ${LIMITS.bio} characters`).nullable().optional(),
    avatar_url: z
      .string()
      .max(2048)
      .refine((url) => url.startsWith('/api/uploads/secure/'), 'Avatar must be an uploaded image')
      .nullable()
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} cannot be changed` : undefined) },
)
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>

export const PlatformRole = z.enum(['user', 'admin'])
export type PlatformRole = z.infer<typeof PlatformRole>

/** A user as every call answers it. */
export const User = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  role: PlatformRole,
  bio: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
})
export type User = z.infer<typeof User>

/** Where a requested account deletion stands. */
export const DeletionStatus = z.object({
  deletion_requested: z.boolean(),
  deletion_scheduled_for: z.string().nullable(),
  days_remaining: z.number().int().nullable(),
  hours_remaining: z.number().int().nullable(),
})
export type DeletionStatus = z.infer<typeof DeletionStatus>

export const Profile = User.extend({ deletion: DeletionStatus })
export type Profile = z.infer<typeof Profile>

export const AuthResponse = z.object({ access_token: z.string(), user: User })
export type AuthResponse = z.infer<typeof AuthResponse>

export const RefreshResponse = z.object({ access_token: z.string() })
export type RefreshResponse = z.infer<typeof RefreshResponse>

export const MessageResponse = z.object({ message: z.string() })
export type MessageResponse = z.infer<typeof MessageResponse>

export const VerifyEmailResponse = z.object({ message: z.string(), user: User })
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>

export const ChangePasswordResponse = z.object({ message: z.string(), access_token: z.string() })
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>

export const RequestDeletionResponse = z.object({ message: z.string(), deletion_scheduled_for: z.string() })
export type RequestDeletionResponse = z.infer<typeof RequestDeletionResponse>

export const UploadResponse = z.object({ url: z.string() })
export type UploadResponse = z.infer<typeof UploadResponse>

export const HealthResponse = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  version: z.string(),
})
export type HealthResponse = z.infer<typeof HealthResponse>

/**
 * The 401 message for a token that was valid until the account's password was set anew (changed, reset by link or
 * by an admin): every older token is revoked. The PWA tells it from an expired token by this text and says why on
 * the sign-in page (/login?reason=password-changed).
 */
export const SESSION_REVOKED_MESSAGE = 'Your password was changed, so this session has ended'

/**
 * The 401 message for a token whose session was ended (signed out from another device, or by the
 * device itself: decision 103). The PWA tells it from an expired token by this text and says why on
 * the sign-in page (/login?reason=signed-out).
 */
export const SESSION_ENDED_MESSAGE = 'You were signed out from another device'

/** The verify-email answer (410) for a link whose account is verified already: opened twice, say. */
export const ALREADY_VERIFIED_MESSAGE = 'Your e-mail is already verified'
