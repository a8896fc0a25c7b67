import {
  ChangePasswordBody,
  ChangePasswordResponse,
  DeletionStatus,
  MessageResponse,
  Profile,
  RequestDeletionResponse,
  UpdateProfileBody,
  User,
} from '@buble/shared/auth'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { UsersService } from './service.ts'

const tag = 'users'

export function usersRoutes(users: UsersService) {
  return new Hono<AppEnv>()
    .get('/profile', describe({ tag, summary: 'Your profile with its deletion status', response: Profile }), (c) =>
      c.json(users.profile(c.var.user)),
    )
    .put(
      '/profile',
      describe({ tag, summary: 'Edit name, bio or avatar', response: User }),
      validate('json', UpdateProfileBody),
      async (c) => c.json(await users.updateProfile(c.var.user, c.req.valid('json'))),
    )
    .post(
      '/change-password',
      describe({ tag, summary: 'Change your password; older tokens stop working', response: ChangePasswordResponse }),
      validate('json', ChangePasswordBody),
      async (c) =>
        c.json(
          await users.changePassword(c.var.user, c.req.valid('json'), {
            id: c.var.sessionId,
            headers: c.req.raw.headers,
          }),
        ),
    )
    .get(
      '/deletion-status',
      describe({ tag, summary: 'Where a requested deletion stands', response: DeletionStatus }),
      (c) => c.json(users.deletionStatus(c.var.user)),
    )
    .post(
      '/request-deletion',
      describe({ tag, summary: 'Schedule your account for deletion in 7 days', response: RequestDeletionResponse }),
      async (c) => c.json(await users.requestDeletion(c.var.user)),
    )
    .delete(
      '/cancel-deletion',
      describe({ tag, summary: 'Cancel a scheduled deletion', response: MessageResponse }),
      async (c) => c.json(await users.cancelDeletion(c.var.user)),
    )
}
