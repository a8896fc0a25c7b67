/**
 * The sync chaos harness (issue 22 §4): several simulated devices (chaos/device.ts: the real client
 * engine over fake-indexeddb) write at random, online and offline, through a fault proxy of its own
 * (chaos/fault-proxy.ts) to real API processes on one PostgreSQL database, while a seeded schedule
 * kills nodes mid-push and mid-pull, terminates the database's connections, duplicates, delays,
 * reorders and drops requests and answers, lets a token expire while a device is offline, removes a
 * member whose device holds queued writes, runs two tabs on one device and closes tabs mid-round. Then the faults stop,
 * every outbox must drain within a bounded number of rounds, and chaos/invariants.ts checks the
 * result. `runChaos` answers a summary per run (`formatSummary` prints it). Used by
 * features/sync/chaos.test.ts (a few fixed seeds) and `npm run chaos` (api/scripts/chaos.ts).
 */

import type { PullResponse } from '@buble/sync/protocol'
import { SignJWT } from 'jose'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { type Cluster, JOB_INTERVAL_MS, startCluster } from '../cluster.ts'
import { PASSWORD, TEST_JWT_SECRET } from '../harness.ts'
import { seededRandom } from '../push-fuzz.ts'
import { startServerProcess } from '../server-process.ts'
import { ChaosDevice, type ChaosUser, type SentMutation } from './device.ts'
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts'
import {
  checkLastWrites,
  checkMutations,
  checkNoDuplicateRows,
  checkRemovedWrites,
  checkStore,
  INVARIANTS,
  type Invariant,
  type Violations,
} from './invariants.ts'

export const FAULT_KINDS = [
  'kill-push',
  'kill-pull',
  'pg-terminate',
  'duplicate',
  'delay',
  'reorder',
  'lost-answer',
  'token-expiry',
  'member-removed',
  'two-tabs',
  'reload',
  'offline',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/** Rounds every device may take, once the faults stop, to empty its outbox. */
export const MAX_DRAIN_ROUNDS = 12

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The API nodes, the fault proxy before them, and the database; nodes killed by a fault start again. */
export interface ChaosCluster {
  proxy: FaultProxy
  /** Each node's URL, or null while it is down. */
  urls(): (string | null)[]
  /** SIGKILLs node `index` and starts it again (at most one node down at a time: a no-op otherwise). */
  kill(index: number): boolean
  /** Resolves once every node killed so far runs again. */
  restarted(): Promise<void>
  /** A connection of the harness's own to the cluster's database. */
  db: pg.Client
  databaseName: string
  /** Chooses which of a duplicated request's answers the device gets (the run sets it to its seeded PRNG). */
  pick: () => number
  /** Calls a node directly (no faults), retrying while nodes restart or the database is cut. */
  call(path: string, opts?: { token?: string; body?: unknown; method?: string }): Promise<Response>
  stop(): Promise<void>
}

export async function startChaosCluster(count: number): Promise<ChaosCluster> {
  const cluster: Cluster = await startCluster(count, { BUBLE_RATE_LIMITS: 'off' })
  const down = new Set<number>()
  const restarts: Promise<void>[] = []
  let stopping = false
  const env = {
    DATABASE_URL: cluster.database.url!,
    PUBLIC_URL: cluster.proxy.url,
    BUBLE_RATE_LIMITS: 'off',
    CLUSTER_JOB_INTERVAL_MS: String(JOB_INTERVAL_MS),
  }
  const urls = () => cluster.nodes.map((node, index) => (down.has(index) ? null : node.url))
  const kill = (index: number): boolean => {
    const node = cluster.nodes[index]
    if (!node || down.size > 0 || stopping) return false
    down.add(index)
    node.child.kill('SIGKILL')
    restarts.push(
      (async () => {
        await node.exited
        if (stopping) return
        cluster.nodes[index] = await startServerProcess({
          entry: 'api/src/testing/cluster-server.ts',
          dataDir: cluster.dataDir,
          env,
        })
        down.delete(index)
      })(),
    )
    return true
  }
  const chaos: ChaosCluster = {
    proxy: undefined as unknown as FaultProxy,
    urls,
    kill,
    restarted: async () => {
      await Promise.all(restarts)
    },
    db: new pg.Client({ connectionString: cluster.database.url }),
    databaseName: new URL(cluster.database.url!).pathname.slice(1),
    pick: Math.random,
    async call(path, opts = {}) {
      let lastError = ''
      for (let attempt = 0; attempt < 300; attempt++) {
        const live = urls().filter((url): url is string => url !== null)
        const base = live[attempt % Math.max(1, live.length)]
        if (base) {
          try {
            const res = await fetch(`${base}${path}`, {
              method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
              headers: {
                ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
                ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
              },
              body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
            })
            if (res.status < 500) return res
            lastError = `${res.status} ${await res.text()}`
          } catch (err) {
            lastError = err instanceof Error ? err.message : String(err)
          }
        }
        await sleep(100)
      }
      throw new Error(`${path} never answered: ${lastError}`)
    },
    async stop() {
      stopping = true
      await chaos.proxy?.close()
      await Promise.allSettled(restarts)
      await chaos.db.end().catch(() => {})
      await cluster.stop()
    },
  }
  try {
    await chaos.db.connect()
    chaos.proxy = await startFaultProxy({
      targets: urls,
      onKill: kill,
      canKill: () => down.size === 0 && !stopping,
      pick: () => chaos.pick(),
    })
  } catch (err) {
    await chaos.stop()
    throw err
  }
  return chaos
}

export interface RunOptions {
  seed: number
  /** Devices, one user each (at least 3: the owner, one to remove, one whose token expires). */
  devices: number
  /** Steps of random writes and faults. */
  steps?: number
  /** Extra proxy faults per step, besides each kind's one (a probability). */
  faultRate?: number
  /** Tests of the checks only: breaks something just before they run, to see them catch it. */
  tamper?: (run: {
    devices: readonly ChaosDevice[]
    removed: ChaosDevice
    sharedBubleId: string
    db: pg.Client
  }) => Promise<void>
}

export interface RunSummary {
  seed: number
  devices: number
  nodes: number
  faults: Record<FaultKind, number>
  mutations: { sent: number; applied: number; duplicatesAnswered: number; rejected: number }
  /** Rows whose text was checked against the last write applied to them. */
  lastWritesChecked: number
  /** The devices' rejections, by code. */
  rejectedBy: Record<string, number>
  /** The mutation names the devices queued. */
  names: string[]
  /** 401s answered to devices, and how often they signed in again. */
  auth: { unauthorized: number; signIns: number }
  /** Rounds every device took to empty its outbox once the faults stopped. */
  drainRounds: number | null
  invariants: readonly Invariant[]
  violations: Violations
  ms: number
}

const PROXY_FAULTS = ['duplicate', 'delay', 'reorder', 'lost-answer'] as const

/** One seeded run on `cluster`, with its own users and bubles; answers what happened and what broke. */
export async function runChaos(cluster: ChaosCluster, options: RunOptions): Promise<RunSummary> {
  const started = Date.now()
  const random = seededRandom(options.seed)
  // Draws made at moments timing decides (the proxy's, each device's) come from streams of their own.
  cluster.pick = seededRandom(options.seed ^ 0x5bd1e995)
  const steps = options.steps ?? 40
  const faultRate = options.faultRate ?? 0.1
  const count = Math.max(3, options.devices)
  const faults = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>
  const proxyBefore = { ...cluster.proxy.injected }
  const tag = `chaos${options.seed}x${uuidv7().slice(-6)}`
  let written = 0
  const text = () => `${tag} ${++written}`

  // People, and one buble they all share (the first one owns it).
  const users: (ChaosUser & { token: string })[] = []
  for (let i = 0; i < count; i++) {
    const user = { name: `Chaos ${i}`, email: `${tag}-${i}@example.com`, password: PASSWORD }
    const res = await cluster.call('/api/auth/register', { body: user })
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`)
    const body = (await res.json()) as { access_token: string; user: { id: string } }
    users.push({ ...user, id: body.user.id, token: body.access_token })
  }
  const owner = users[0]!
  const shared = uuidv7()
  const created = await cluster.call('/api/sync/push', {
    token: owner.token,
    body: {
      clientId: 'chaos-setup',
      mutations: [
        {
          id: uuidv7(),
          name: 'buble.create',
          args: { id: shared, name: `${tag} shared` },
          createdAt: new Date().toISOString(),
        },
      ],
    },
  })
  if (created.status !== 200) throw new Error(`buble.create answered ${created.status}`)
  for (const member of users.slice(1)) {
    const invite = await cluster.call(`/api/bubles/${shared}/invites`, { token: owner.token, body: {} })
    const { code } = (await invite.json()) as { code: string }
    const accepted = await cluster.call(`/api/bubles/invites/${code}/accept`, { token: member.token, body: {} })
    if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}: ${await accepted.text()}`)
  }

  const signIn = async (user: ChaosUser) => {
    const res = await cluster.call('/api/auth/login', { body: { email: user.email, password: user.password } })
    if (res.status !== 200) throw new Error(`login answered ${res.status}`)
    return ((await res.json()) as { access_token: string }).access_token
  }
  // The first device runs two tabs over one database.
  const devices = users.map(
    (user, index) =>
      new ChaosDevice({
        index,
        user,
        token: user.token,
        tabs: index === 0 ? 2 : 1,
        baseUrl: cluster.proxy.url,
        signIn,
        random: seededRandom(options.seed * 1000 + index + 1),
        jitter: seededRandom(options.seed * 1000 + index + 500),
        text,
      }),
  )
  try {
    for (const device of devices) await device.syncAll()

    // The schedule: every kind of fault once at a random step, then more proxy faults at random.
    const plan = new Map<number, FaultKind[]>()
    const at = (kind: FaultKind, step: number) => plan.set(step, [...(plan.get(step) ?? []), kind])
    for (const kind of FAULT_KINDS) if (kind !== 'two-tabs') at(kind, 2 + Math.floor(random() * (steps - 8)))
    // Who loses their token, and who is removed: two different people, neither the owner.
    const expiring = devices[1 + Math.floor(random() * (count - 1))]!
    const others = devices.slice(1).filter((device) => device !== expiring)
    const removed = others[Math.floor(random() * others.length)]!
    const doomed: SentMutation[] = []
    const episodes: Promise<unknown>[] = []
    const episodeErrors: unknown[] = []
    const episode = (run: () => Promise<void>) => episodes.push(run().catch((err: unknown) => episodeErrors.push(err)))

    const tokenExpiry = async () => {
      const device = expiring
      device.pinned = true
      device.setOnline(false)
      // A token that ends in a second or two, as a week-old one would: given while offline.
      const { rows } = await cluster.db.query<{ tv: number }>('select token_version as tv from users where id = $1', [
        device.user.id,
      ])
      const exp = Math.ceil(Date.now() / 1000) + 1
      device.token = await new SignJWT({ tv: rows[0]!.tv })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(device.user.id)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET))
      for (let i = 0; i < 3; i++) await device.randomWrite()
      await sleep(exp * 1000 - Date.now() + 300)
      // Back online (and kept online until then): the server refuses the expired token, the device
      // signs in again, the queue replays.
      device.setOnline(true)
      const before = device.unauthorized
      // A round already running (started offline) ends first; the next one meets the refusal.
      for (let tries = 0; tries < 5 && device.unauthorized === before; tries++) await device.tabs[0]!.engine.sync()
      if (device.unauthorized > before) faults['token-expiry'] += 1
      device.pinned = false
      await device.syncAll()
    }

    const memberRemoved = async () => {
      const device = removed
      device.pinned = true
      device.setOnline(false)
      for (const name of ['post.create', 'chat.send', 'event.create'] as const) {
        const id = uuidv7()
        const args =
          name === 'event.create'
            ? { id, buble_id: shared, title: text(), event_time: '2031-05-01T18:00:00.000Z' }
            : { id, buble_id: shared, content: text() }
        const queued = await device.queue(name, args as never, shared)
        const sent = device.sent.find((mutation) => mutation.id === queued)
        if (sent) doomed.push(sent)
      }
      const res = await cluster.call(`/api/bubles/${shared}/members/remove`, {
        method: 'DELETE',
        token: owner.token,
        body: { userId: device.user.id },
      })
      if (res.status !== 200) throw new Error(`remove answered ${res.status}: ${await res.text()}`)
      faults['member-removed'] += 1
      await sleep(20 + random() * 80)
      device.setOnline(true)
      device.pinned = false
      device.poke()
    }

    const inject = async (kind: FaultKind) => {
      const on = random() < 0.5 ? 'push' : 'pull'
      switch (kind) {
        case 'kill-push':
        case 'kill-pull':
          cluster.proxy.arm({
            kind: 'kill',
            on: kind === 'kill-push' ? 'push' : 'pull',
            afterMs: Math.floor(random() * 15),
          })
          return
        case 'pg-terminate': {
          const { rows } = await cluster.db.query<{ n: number }>(
            `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
              where datname = $1 and pid <> pg_backend_pid()) t`,
            [cluster.databaseName],
          )
          if ((rows[0]?.n ?? 0) > 0) faults['pg-terminate'] += 1
          return
        }
        case 'duplicate':
          cluster.proxy.arm({
            kind: 'duplicate',
            on,
            ...(random() < 0.5 ? { lateMs: 20 + Math.floor(random() * 400) } : {}),
          })
          return
        case 'delay':
          cluster.proxy.arm({ kind: 'delay', on, ms: 20 + Math.floor(random() * 200) })
          return
        case 'reorder':
          cluster.proxy.arm({ kind: 'reorder', on, holdMs: 100 + Math.floor(random() * 150) })
          return
        case 'lost-answer':
          // Mostly pushes: a push whose answer is lost is the case that matters.
          cluster.proxy.arm({ kind: 'lost-answer', on: random() < 0.8 ? 'push' : 'pull', midBody: random() < 0.5 })
          return
        case 'token-expiry':
          episode(tokenExpiry)
          return
        case 'member-removed':
          episode(memberRemoved)
          return
        case 'reload': {
          // A tab closed in the middle of a round, and opened again.
          const device = devices[Math.floor(random() * count)]!
          const tab = Math.floor(random() * device.tabs.length)
          void device.tabs[tab]!.engine.sync()
          await sleep(Math.floor(random() * 40))
          device.reload(tab)
          faults.reload += 1
          return
        }
        case 'offline': {
          const device = devices[Math.floor(random() * count)]!
          if (!device.pinned && device.online) {
            device.setOnline(false)
            faults.offline += 1
          }
          return
        }
        default:
          return
      }
    }

    for (let step = 0; step < steps; step++) {
      for (const kind of plan.get(step) ?? []) await inject(kind)
      if (random() < faultRate) await inject(PROXY_FAULTS[Math.floor(random() * PROXY_FAULTS.length)]!)
      if (random() < faultRate / 4) await inject(random() < 0.5 ? 'kill-push' : 'kill-pull')
      if (random() < faultRate / 2) await inject(random() < 0.5 ? 'reload' : 'pg-terminate')
      for (const device of devices) {
        if (!device.pinned && random() < 0.12) {
          if (device.online) faults.offline += 1
          device.setOnline(!device.online)
        }
        const writes = random() < 0.7 ? 1 + Math.floor(random() * 2) : 0
        for (let i = 0; i < writes; i++) await device.randomWrite()
        if (random() < 0.5) device.poke()
        // The app asks its user to sign in again when a round was refused for the token.
        if (!device.pinned && random() < 0.3) await device.signInIfNeeded()
      }
      await sleep(5 + Math.floor(random() * 40))
    }
    faults['two-tabs'] = devices[0]!.sent.some((mutation) => mutation.tab === 1) ? 1 : 0

    // The proxy's faults still armed find their requests: devices write and sync until each was used.
    await Promise.all(episodes)
    const until = Date.now() + 60_000
    while (cluster.proxy.pending() > 0 && Date.now() < until) {
      // A kill waits for the node killed before it to run again.
      if (cluster.urls().includes(null)) await cluster.restarted()
      for (const device of devices) {
        device.setOnline(true)
        if (random() < 0.5) await device.randomWrite()
        device.poke()
      }
      await sleep(30)
    }

    // The faults stop and the network comes back.
    if (episodeErrors.length > 0) throw episodeErrors[0]
    cluster.proxy.disarm()
    await cluster.restarted()
    for (const device of devices) device.setOnline(true)
    for (const device of devices) await Promise.all(device.tabs.map((tab) => tab.engine.settled()))
    for (const kind of ['duplicate', 'delay', 'reorder', 'lost-answer', 'kill-push', 'kill-pull'] as const)
      faults[kind] += cluster.proxy.injected[kind] - proxyBefore[kind]

    const violations: Violations = {}
    let drainRounds: number | null = null
    for (let round = 1; round <= MAX_DRAIN_ROUNDS && drainRounds === null; round++) {
      for (const device of devices) await device.syncAll()
      const sizes = await Promise.all(devices.map((device) => device.outboxSize()))
      if (sizes.every((size) => size === 0)) drainRounds = round
    }
    if (drainRounds === null) {
      for (const device of devices) {
        const stuck = await device.db.outbox.toArray()
        if (stuck.length > 0)
          violations['outbox-drained'] = [
            ...(violations['outbox-drained'] ?? []),
            `device ${device.index} still holds ${stuck.length} (${(await device.tabs[0]!.engine.status()).error}): ${stuck
              .slice(0, 3)
              .map((entry) => `${entry.name} ${entry.status}`)
              .join(', ')}`,
          ]
      }
    }
    // One more round each, so every device has what the others sent last.
    for (const device of devices) await device.syncAll()

    await options.tamper?.({ devices, removed, sharedBubleId: shared, db: cluster.db })
    const counted = await checkMutations(cluster.db, devices, violations)
    await checkNoDuplicateRows(cluster.db, tag, violations)
    const lastWrites = await checkLastWrites(cluster.db, devices, counted.results, violations)
    await checkRemovedWrites(removed, doomed, shared, violations)
    const pull = async (token: string, cursor?: string): Promise<PullResponse> => {
      const query = new URLSearchParams({ limit: '500' })
      if (cursor) query.set('cursor', cursor)
      const res = await cluster.call(`/api/sync/pull?${query}`, { token })
      if (res.status !== 200) throw new Error(`pull answered ${res.status}`)
      return (await res.json()) as PullResponse
    }
    for (const device of devices) await checkStore(device, pull, violations)
    for (const device of devices)
      if (device.refusedLocally.length > 0)
        violations['exactly-once'] = [
          ...(violations['exactly-once'] ?? []),
          `device ${device.index} could not queue: ${device.refusedLocally.slice(0, 3).join('; ')}`,
        ]

    return {
      seed: options.seed,
      devices: count,
      nodes: cluster.urls().length,
      faults,
      mutations: {
        sent: counted.sent,
        applied: counted.applied,
        duplicatesAnswered: devices.reduce((sum, device) => sum + device.answered.duplicate, 0),
        rejected: counted.rejected,
      },
      lastWritesChecked: lastWrites,
      rejectedBy: await rejectionCodes(devices),
      names: [...new Set(devices.flatMap((device) => device.sent.map((mutation) => mutation.name)))].sort(),
      auth: {
        unauthorized: devices.reduce((sum, device) => sum + device.unauthorized, 0),
        signIns: devices.reduce((sum, device) => sum + device.signIns, 0),
      },
      drainRounds,
      invariants: INVARIANTS,
      violations,
      ms: Date.now() - started,
    }
  } finally {
    for (const device of devices) await device.close()
  }
}

async function rejectionCodes(devices: readonly ChaosDevice[]): Promise<Record<string, number>> {
  const codes: Record<string, number> = {}
  for (const device of devices)
    for (const row of await device.db.rejections.toArray()) codes[row.code] = (codes[row.code] ?? 0) + 1
  return codes
}

/** The summary as the issue's closing note shows it: a few lines per run. */
export function formatSummary(summary: RunSummary): string {
  const faults = Object.entries(summary.faults)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ')
  const broken = Object.entries(summary.violations).filter(([, list]) => list && list.length > 0)
  const m = summary.mutations
  return [
    `seed ${summary.seed}: ${summary.devices} devices on ${summary.nodes} nodes, ${(summary.ms / 1000).toFixed(1)} s`,
    `  faults: ${faults}`,
    `  mutations: ${m.sent} sent, ${m.applied} applied, ${m.duplicatesAnswered} answered duplicate, ${m.rejected} rejected (${summary.names.length} kinds); ${summary.lastWritesChecked} rows hold their last write`,
    `  rejected by code: ${
      Object.entries(summary.rejectedBy)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ') || 'none'
    }`,
    `  auth: ${summary.auth.unauthorized} answered 401, ${summary.auth.signIns} signed in again; outboxes drained in ${summary.drainRounds ?? `more than ${MAX_DRAIN_ROUNDS}`} rounds`,
    `  invariants: ${summary.invariants.map((name) => `${name} ${summary.violations[name]?.length ? 'FAILED' : 'ok'}`).join(', ')}`,
    ...broken.flatMap(([name, list]) => (list ?? []).map((line) => `    ${name}: ${line}`)),
  ].join('\n')
}
