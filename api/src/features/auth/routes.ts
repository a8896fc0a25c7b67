import {
  AuthResponse,
  EmailBody,
  LoginBody,
  MessageResponse,
  RefreshResponse,
  RegisterBody,
  ResetPasswordBody,
  TokenBody,
  VerifyEmailResponse,
} from '@buble/shared/auth'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { AuthService } from './service.ts'

const tag = 'auth'

export function authRoutes(auth: AuthService, trustProxy: boolean) {
  return new Hono<AppEnv>()
    .post(
      '/register',
      describe({ tag, summary: 'Create an account', status: 201, response: AuthResponse, auth: false }),
      validate('json', RegisterBody),
      async (c) => c.json(await auth.register(c.req.valid('json'), clientIp(c, trustProxy), c.req.raw.headers), 201),
    )
    .post(
      '/login',
      describe({ tag, summary: 'Sign in', response: AuthResponse, auth: false }),
      validate('json', LoginBody),
      async (c) => c.json(await auth.login(c.req.valid('json'), clientIp(c, trustProxy), c.req.raw.headers)),
    )
    .post(
      '/refresh-token',
      describe({ tag, summary: 'Exchange a valid token for a fresh one', response: RefreshResponse }),
      async (c) => c.json(await auth.refresh(c.var.user, c.var.sessionId, c.req.raw.headers)),
    )
    .post(
      '/resend-verification',
      describe({ tag, summary: 'Send the verification mail again', response: MessageResponse, auth: false }),
      validate('json', EmailBody),
      async (c) => c.json(await auth.resendVerification(c.req.valid('json').email, clientIp(c, trustProxy))),
    )
    .post(
      '/verify-email',
      describe({ tag, summary: 'Verify an e-mail address with its token', response: VerifyEmailResponse, auth: false }),
      validate('json', TokenBody),
      async (c) => c.json(await auth.verifyEmail(c.req.valid('json').token)),
    )
    .post(
      '/forgot-password',
      describe({ tag, summary: 'Mail a password reset link', response: MessageResponse, auth: false }),
      validate('json', EmailBody),
      async (c) => c.json(await auth.forgotPassword(c.req.valid('json').email, clientIp(c, trustProxy))),
    )
    .post(
      '/reset-password',
      describe({ tag, summary: 'Set a new password with a reset token', response: MessageResponse, auth: false }),
      validate('json', ResetPasswordBody),
      async (c) => c.json(await auth.resetPassword(c.req.valid('json'))),
    )
}
