import { DonationConfig, PledgeResponse, pledgeBody } from '@buble/shared/donations'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { DonationsService } from './service.ts'

const tag = 'donations'

/** The public donation calls: no token, so a visitor who is signed out can give too. */
export function donationsRoutes(donations: DonationsService, trustProxy: boolean) {
  return new Hono<AppEnv>()
    .get(
      '/config',
      describe({ tag, summary: 'What the donate page offers', response: DonationConfig, auth: false }),
      (c) => c.json(donations.config()),
    )
    .post(
      '/pledge',
      describe({ tag, summary: 'Record a pledge to donate', status: 201, response: PledgeResponse, auth: false }),
      validate('json', pledgeBody(donations.currency)),
      async (c) => c.json(await donations.pledge(c.req.valid('json'), clientIp(c, trustProxy)), 201),
    )
}
