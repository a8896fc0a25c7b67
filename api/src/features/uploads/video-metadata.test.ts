import { describe, expect, test } from 'vitest'
import {
  box,
  fragmentedMp4,
  fullBox,
  GPS,
  mp4Layout,
  PERSONAL,
  phoneMp4,
  recordedWebm,
  seekableWebm,
  u32,
  voidEnd,
} from '../../testing/video-fixtures.ts'
import { blankMp4Metadata, blankWebmMetadata } from './video-metadata.ts'

const carries = (file: Buffer, text: string) => file.includes(Buffer.from(text))

/** Cleans a copy; answers it, or null when refused. */
function cleaned(clean: (bytes: Uint8Array) => boolean, file: Buffer): Buffer | null {
  const copy = Buffer.from(file)
  return clean(copy) ? copy : null
}

describe('MP4', () => {
  test("a phone's MP4 keeps every playback box and its frames byte for byte; uuid XMP, udta, meta, free and the GPS track go", () => {
    const { file, mdat, videoChunks, fixChunks } = phoneMp4()
    for (const text of PERSONAL.filter((t) => t !== 'Trip to the lake' && t !== 'LOCATION'))
      expect(carries(file, text), text).toBe(true)
    const out = cleaned(blankMp4Metadata, file)!
    expect(out).not.toBeNull()

    // Nothing moved: the same boxes at the same places, the mdat (and so every chunk offset) unchanged in place.
    expect(out.length).toBe(file.length)
    const before = mp4Layout(file)
    expect(before.map((b) => b.type)).toEqual(['ftyp', 'uuid', 'moov', 'free', 'mdat'])
    expect(mp4Layout(out)).toEqual(before.map((b) => (b.type === 'uuid' ? { ...b, type: 'free' } : b)))
    const mdatAt = before.find((b) => b.type === 'mdat')!.start
    expect(out.subarray(mdatAt, mdatAt + 8).equals(mdat.subarray(0, 8))).toBe(true)
    for (const chunk of videoChunks)
      expect(out.subarray(chunk.start, chunk.start + chunk.bytes.length)).toEqual(chunk.bytes)
    // The GPS track's samples are zeroed where they lay.
    for (const chunk of fixChunks)
      expect(out.subarray(chunk.start, chunk.start + chunk.bytes.length)).toEqual(Buffer.alloc(chunk.bytes.length))

    for (const text of PERSONAL) expect(carries(out, text), text).toBe(false)
    expect(carries(out, 'ISO6709')).toBe(false)
    expect(carries(out, 'xmpmeta')).toBe(false)

    // moov: the header and the video track stay, the GPS track, udta and meta become free boxes.
    const moov = before.find((b) => b.type === 'moov')!
    const inMoov = mp4Layout(out, moov.start + 8, moov.start + moov.size)
    expect(inMoov.map((b) => b.type)).toEqual(['mvhd', 'trak', 'free', 'free', 'free'])
    expect(mp4Layout(file, moov.start + 8, moov.start + moov.size).map((b) => b.type)).toEqual([
      'mvhd',
      'trak',
      'trak',
      'udta',
      'meta',
    ])
    // The video track: everything a player reads is byte for byte the same; only its udta is blanked.
    const track = inMoov[1]!
    const trackChildren = mp4Layout(out, track.start + 8, track.start + track.size)
    expect(trackChildren.map((b) => b.type)).toEqual(['tkhd', 'edts', 'mdia', 'free'])
    const mdia = trackChildren[2]!
    expect(out.subarray(track.start, mdia.start + mdia.size)).toEqual(
      file.subarray(track.start, mdia.start + mdia.size),
    )
    // Blanked boxes are zeroed, not just renamed.
    for (const blanked of [...inMoov.slice(2), trackChildren[3]!])
      expect(out.subarray(blanked.start + 8, blanked.start + blanked.size)).toEqual(Buffer.alloc(blanked.size - 8))
  })

  test('a fragmented MP4 keeps its fragments; a uuid inside a track fragment goes', () => {
    const { file } = fragmentedMp4()
    expect(carries(file, GPS)).toBe(true)
    const out = cleaned(blankMp4Metadata, file)!
    expect(out).not.toBeNull()
    expect(carries(out, GPS)).toBe(false)
    expect(mp4Layout(out).map((b) => b.type)).toEqual(['ftyp', 'moov', 'moof', 'mdat'])
    const moof = mp4Layout(out)[2]!
    const traf = mp4Layout(out, moof.start + 8, moof.start + moof.size)[1]!
    expect(mp4Layout(out, traf.start + 8, traf.start + traf.size).map((b) => b.type)).toEqual([
      'tfhd',
      'tfdt',
      'trun',
      'free',
    ])
    const mdat = mp4Layout(out)[3]!
    expect(out.subarray(mdat.start)).toEqual(file.subarray(mdat.start))
  })

  test('a fragment of a track that is not video or sound is refused: its samples could not be found to blank', () => {
    expect(cleaned(blankMp4Metadata, fragmentedMp4({ fragmentTrack: 7 }).file)).toBeNull()
  })

  test('an unknown top-level box is blanked too (allow-list, not a deny-list)', () => {
    const file = Buffer.concat([
      box('ftyp', 'isom', u32(0), 'isom'),
      box('XMP_', GPS),
      box('prft', GPS),
      box('mdat', 'x'),
    ])
    const out = cleaned(blankMp4Metadata, file)!
    expect(mp4Layout(out).map((b) => b.type)).toEqual(['ftyp', 'free', 'free', 'mdat'])
    expect(carries(out, GPS)).toBe(false)
  })

  test.each([
    [
      'a box overrunning the file',
      () => Buffer.concat([box('ftyp', 'isom'), u32(1_000_000), Buffer.from('moov'), Buffer.alloc(64)]),
    ],
    ['a box shorter than its header', () => Buffer.concat([box('ftyp', 'isom'), u32(4), Buffer.from('free')])],
    [
      'a child overrunning its moov',
      () => Buffer.concat([box('ftyp', 'isom'), box('moov', u32(500), 'mvhd', Buffer.alloc(8))]),
    ],
    [
      'a track without a handler',
      () =>
        Buffer.concat([
          box('ftyp', 'isom'),
          box('moov', box('trak', fullBox('tkhd', 0, Buffer.alloc(80)), box('mdia'))),
        ]),
    ],
    [
      'a GPS track whose chunks point outside the media data',
      () => {
        const { file } = phoneMp4()
        // The GPS track's first chunk offset, moved to the start of the file.
        file.writeUInt32BE(0, phoneMp4Offsets(file))
        return file
      },
    ],
    [
      'a GPS track claiming four billion samples of one byte',
      () => {
        const { file } = phoneMp4()
        const stsz = lastIndexOfBox(file, 'stsz')
        file.writeUInt32BE(1, stsz + 12) // one size for every sample
        file.writeUInt32BE(0xffffffff, stsz + 16) // and this many of them
        return file
      },
    ],
  ])('%s is refused', (_what, make) => {
    expect(cleaned(blankMp4Metadata, make())).toBeNull()
  })
})

/** Where the last track's (the GPS track's) first stco entry is written. */
function phoneMp4Offsets(file: Buffer): number {
  return lastIndexOfBox(file, 'stco') + 16
}
function lastIndexOfBox(file: Buffer, type: string): number {
  return file.lastIndexOf(Buffer.from(type)) - 4
}

describe('WebM', () => {
  test('Tags (with LOCATION), the Title, a track Name and their SeekHead entry become Voids of the same size; the rest is byte for byte the same', () => {
    const { file, voided, kept, segmentData, positions } = seekableWebm()
    for (const text of PERSONAL.filter((t) => t !== 'GPSLatitude')) expect(carries(file, text), text).toBe(true)
    const out = cleaned(blankWebmMetadata, file)!
    expect(out).not.toBeNull()
    expect(out.length).toBe(file.length)
    for (const text of PERSONAL) expect(carries(out, text), text).toBe(false)

    // Each voided range is one zeroed Void spanning exactly that range; every other byte is unchanged.
    const ranges = Object.values(voided).sort((a, b) => a.start - b.start)
    let at = 0
    for (const range of ranges) {
      expect(out.subarray(at, range.start)).toEqual(file.subarray(at, range.start))
      expect(voidEnd(out, range.start)).toBe(range.end)
      at = range.end
    }
    expect(out.subarray(at)).toEqual(file.subarray(at))
    // The Cluster and the Cues are where the SeekHead and the Cues say they are.
    expect(kept.cluster.start).toBe(segmentData + positions.cluster)
    expect(kept.cues.start).toBe(segmentData + positions.cues)
    expect(out.subarray(kept.cluster.start, kept.cluster.end)).toEqual(
      file.subarray(kept.cluster.start, kept.cluster.end),
    )
  })

  test('a MediaRecorder WebM (Segment and Clusters of unknown size) loses its Tags and keeps every cluster', () => {
    const { file, tags } = recordedWebm()
    const out = cleaned(blankWebmMetadata, file)!
    expect(out).not.toBeNull()
    expect(carries(out, GPS)).toBe(false)
    expect(out.subarray(0, tags.start)).toEqual(file.subarray(0, tags.start))
    expect(voidEnd(out, tags.start)).toBe(tags.end)
    expect(tags.end).toBe(file.length)
  })

  test('a WebM without metadata is left exactly as it was', () => {
    const { file } = recordedWebm({ withTags: false })
    expect(cleaned(blankWebmMetadata, file)).toEqual(file)
  })

  test.each([
    [
      'noise after the EBML header',
      () => {
        const { file } = recordedWebm()
        return Buffer.concat([file.subarray(0, file.indexOf(Buffer.from('18538067', 'hex'))), Buffer.alloc(200, 0x55)])
      },
    ],
    ['no EBML header', () => Buffer.from('1853806701ffffffffffffff', 'hex')],
    ['a file cut inside an element', () => seekableWebm().file.subarray(0, 300)],
    [
      'an element overrunning its Segment',
      () => {
        const { file, voided } = seekableWebm()
        // Tags, the Segment's last element, claims 126 bytes (its one-byte size's largest).
        expect(voided.tags.end - voided.tags.start).toBeLessThan(4 + 1 + 126)
        file[voided.tags.start + 4] = 0x80 | 126
        return file
      },
    ],
    [
      'a Segment-level element of unknown size that is no Cluster',
      () => Buffer.concat([recordedWebm({ withTags: false }).file, Buffer.from('1254c36701ffffffffffffff', 'hex')]),
    ],
  ])('%s is refused', (_what, make) => {
    expect(cleaned(blankWebmMetadata, make())).toBeNull()
  })
})
