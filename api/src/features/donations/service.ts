/** Donations (CONTRACT §3.5): the public page's config, and pledges stored for the people who run Buble. */

import {
  type DonationConfig,
  type PledgeBody,
  type PledgeResponse,
  pledgeThanks,
  toCents,
} from '@buble/shared/donations'
import { v7 as uuidv7 } from 'uuid'
import { donationPledges } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'

export type DonationsService = ReturnType<typeof donationsService>

export function donationsService({ db, config, rateLimits, now }: Pick<Deps, 'db' | 'config' | 'rateLimits' | 'now'>) {
  const settings = config.donations
  const page: DonationConfig = Object.freeze({
    currency: settings.currency,
    stripeLink: settings.stripeLink ?? null,
    paypalLink: settings.paypalLink ?? null,
    bankIban: settings.bankIban ?? null,
    bankBic: settings.bankBic ?? null,
    suggestedAmounts: [...settings.suggestedAmounts],
  })

  return {
    /** The currency pledges must use: the page's, since every channel on it takes that one. */
    currency: settings.currency,

    config: (): DonationConfig => page,

    async pledge(args: PledgeBody, ip: string): Promise<PledgeResponse> {
      // CONTRACT §6: 10 pledges per hour per IP, so the form cannot fill the table.
      await rateLimits.consume(['pledgePerIp', ip])
      const id = uuidv7()
      await db.insert(donationPledges).values({
        id,
        name: args.name,
        email: args.email,
        amountCents: toCents(args.amount),
        currency: args.currency,
        message: args.message,
        createdAt: now(),
      })
      return { id, message: pledgeThanks(args.name, args.amount, args.currency) }
    },
  }
}
