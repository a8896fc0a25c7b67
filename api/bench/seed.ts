/** What every bench seed shares: one transaction on PostgreSQL whose versions come from `buble_next_version()` like any writer's. */

import { type BubleRole, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import pg from 'pg'

/**
 * Runs `write` in one transaction (at most 64,511 versions in SQL, decision 91: a bigger seed calls
 * `checkpoint` between its parts), then `maintenance` after the commit
 * (planner statistics and the visibility map as autovacuum keeps them on a live database: a bulk
 * load outruns it). Rolls back and rethrows when `write` fails.
 */
export async function seedTransaction(
  databaseUrl: string | undefined,
  maintenance: string,
  write: (client: pg.Client, checkpoint: () => Promise<void>) => Promise<void>,
): Promise<void> {
  if (!databaseUrl) throw new Error('seeding needs PostgreSQL')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('begin')
    // Commits what is written so far and goes on in a new transaction (a big seed: one transaction
    // may take at most 64,511 versions in SQL; temporary tables made without ON COMMIT DROP stay).
    const checkpoint = async () => {
      await client.query('commit')
      await client.query('begin')
    }
    await write(client, checkpoint)
    await client.query('commit')
    await client.query(maintenance)
  } catch (err) {
    await client.query('rollback').catch(() => {})
    throw err
  } finally {
    await client.end()
  }
}

/** A role's default permissions as a PostgreSQL text[] literal (what a join through the API stores). */
export const rolePermissionsSql = (role: BubleRole): string => `'{${ROLE_DEFAULT_PERMISSIONS[role].join(',')}}'::text[]`

/** Users, active and verified, named `<name> <n>` with e-mails `<prefix>-<run>-<n>@example.com`. */
export async function insertUsers(
  client: pg.Client,
  opts: { run: string; prefix: string; name: string; userIds: string[] },
): Promise<void> {
  await client.query(
    `insert into users (id, name, email, email_verified, status)
     select id, $3 || ' ' || n, $4 || '-' || $2 || '-' || n || '@example.com', true, 'active'
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
    [opts.userIds, opts.run, opts.name, opts.prefix],
  )
}

/**
 * Members, active and verified, named `<label> Member <n>` with e-mails `<prefix>-<run>-<n>@example.com`;
 * and bubles owned by `ownerId`, slugs `<prefix>-<run>-<n>`.
 */
export async function insertUsersAndBubles(
  client: pg.Client,
  opts: { run: string; prefix: string; label: string; userIds: string[]; bubleIds: string[]; ownerId: string },
): Promise<void> {
  await insertUsers(client, { run: opts.run, prefix: opts.prefix, name: `${opts.label} Member`, userIds: opts.userIds })
  await client.query(
    `insert into bubles (id, slug, name, owner_id)
     select id, $4 || '-' || $2 || '-' || n, $3 || ' buble ' || n, $5
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
    [opts.bubleIds, opts.run, opts.label, opts.prefix, opts.ownerId],
  )
}

/**
 * Memberships in the order given, each with a fresh version (its join), owners and members with
 * their roles' default permissions; then the bubles' stamps, so pulls see them.
 */
export async function insertMemberships(
  client: pg.Client,
  rows: { bubleIds: string[]; userIds: string[]; roles: ('owner' | 'member')[] },
  stamp: string[],
): Promise<void> {
  await client.query(
    `insert into memberships (buble_id, user_id, role, permissions, joined_version, version)
     select buble_id, user_id, role,
       case role when 'owner' then ${rolePermissionsSql('owner')} else ${rolePermissionsSql('member')} end,
       v, v
     from (select buble_id, user_id, role, buble_next_version() as v
           from unnest($1::uuid[], $2::uuid[], $3::text[]) with ordinality as t(buble_id, user_id, role, n) order by n) m`,
    [rows.bubleIds, rows.userIds, rows.roles],
  )
  await client.query(`update bubles set changed_version = buble_next_version() where id = any($1::uuid[])`, [stamp])
}
