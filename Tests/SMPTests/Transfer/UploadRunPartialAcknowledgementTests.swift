import XCTest
@testable import SMP

/// ``UploadRun`` with answers that store only part of a chunk (MCUboot's serial recovery writes
/// whole flash units): progress, continuing from the device's offset, the learned write unit, and
/// "no progress" only when the offset stops advancing.
final class UploadRunPartialAcknowledgementTests: XCTestCase {
    private let file = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

    private func run(window: Int, alignment: Int = 1) -> UploadRun<ImageUploadTarget> {
        let sizer = ChunkSizer(target: ImageUploadTarget(), maximumMessageSize: 512, alignment: alignment, total: UInt64(file.count), sha: nil)
        return UploadRun(source: file, sizer: sizer, window: window) { _ in }
    }

    private func answer(_ chunk: UploadChunk, _ offset: UInt64) -> ChunkOutcome {
        ChunkOutcome(chunk: chunk, result: .success(UploadAcknowledgement(offset: offset)))
    }

    /// What a device writing `unit`-byte units stores of a chunk ending at `end`: short of the end.
    private func stored(before end: UInt64, unit: UInt64 = 8) -> UInt64 {
        end % unit == 0 ? end - unit : end / unit * unit
    }

    func testAPartialAnswerIsProgressAndTheWindowContinuesFromTheDevicesOffset() throws {
        var run = run(window: 3)
        let first = UInt64(try run.sizer.length(at: 0, isFirst: true))
        try run.accept(first: UploadAcknowledgement(offset: first))
        XCTAssertNil(run.learnedAlignment)
        let window = try run.nextChunks()
        XCTAssertEqual(window.count, 3)
        let short = stored(before: window[0].end)
        XCTAssertEqual(try run.receive(answer(window[0], short)), .continue)
        XCTAssertEqual(run.acknowledged, short, "an offset within the chunk advances")
        let unit = try XCTUnwrap(run.learnedAlignment)
        XCTAssertEqual(short % UInt64(unit), 0, "the unit divides the device's offset")
        XCTAssertGreaterThan(UInt64(unit), window[0].end - short, "the unit exceeds what the device dropped")
        XCTAssertEqual(unit % 8, 0, "a multiple of the device's unit")
        // The chunks sent after it started at the wrong offset: the device answers them with its
        // own offset, which is neither progress nor a stall.
        for chunk in window.dropFirst() { XCTAssertEqual(try run.receive(answer(chunk, short)), .continue) }
        XCTAssertEqual(run.report().acknowledged, short)
        let resent = try run.nextChunks()
        XCTAssertEqual(resent.first?.offset, short, "the upload continues from the device's offset")
        for chunk in resent { XCTAssertEqual(chunk.end % UInt64(unit), 0, "chunk ends fall on the learned unit") }
    }

    func testAPartialFirstAnswerIsNotAResume() throws {
        var run = run(window: 1)
        let first = UInt64(try run.sizer.length(at: 0, isFirst: true))
        let held = stored(before: first)
        try run.accept(first: UploadAcknowledgement(offset: held))
        XCTAssertNil(run.report().resumedFrom)
        XCTAssertEqual(run.acknowledged, held)
        XCTAssertNotNil(run.learnedAlignment)
    }

    func testEveryAdvanceResetsTheStallCountAndOnlyAStuckOffsetFails() throws {
        var run = run(window: 1)
        try run.accept(first: UploadAcknowledgement(offset: UInt64(try run.sizer.length(at: 0, isFirst: true))))
        // Far more partial answers than the stall limit: each advances, so none fails.
        var answered = 0
        while !run.isComplete {
            let chunks = try run.nextChunks()
            let chunk = try XCTUnwrap(chunks.first)
            _ = try run.receive(answer(chunk, chunk.end == run.total ? chunk.end : chunk.end - 1))
            answered += 1
        }
        XCTAssertGreaterThan(answered, ChunkedUploader<ImageUploadTarget>.stallLimit)

        var stuck = self.run(window: 1)
        try stuck.accept(first: UploadAcknowledgement(offset: 400))
        XCTAssertThrowsError(try {
            for _ in 0...ChunkedUploader<ImageUploadTarget>.stallLimit {
                let chunk = try XCTUnwrap(try stuck.nextChunks().first)
                _ = try stuck.receive(answer(chunk, 400))
            }
        }()) { error in
            XCTAssertEqual(error as? ChunkedUploadError, .noProgress(offset: 400))
        }
    }

    func testAnExplicitAlignmentIsKeptAlongsideTheLearnedUnit() throws {
        var run = run(window: 1, alignment: 48)
        try run.accept(first: UploadAcknowledgement(offset: UInt64(try run.sizer.length(at: 0, isFirst: true))))
        let chunk = try XCTUnwrap(try run.nextChunks().first)
        XCTAssertEqual(chunk.end % 48, 0)
        let held = stored(before: chunk.end, unit: 32)
        _ = try run.receive(answer(chunk, held))
        let unit = try XCTUnwrap(run.learnedAlignment)
        let next = try XCTUnwrap(try run.nextChunks().first)
        XCTAssertEqual(next.offset, held)
        XCTAssertEqual(next.end % 48, 0, "the requested alignment still holds")
        XCTAssertEqual(next.end % UInt64(unit), 0, "and the learned one")
    }

    /// Against devices with write units of 2…64 bytes and chunks of many lengths (at least eight
    /// units: a larger unit is left to further partial answers), the estimate from the first
    /// partial answer is a multiple of the true unit: nothing is cut short again.
    func testTheEstimateIsAMultipleOfTheDevicesUnit() {
        for unit in [2, 4, 8, 16, 32, 64] {
            for length in stride(from: 500, through: 2_500, by: 7) where length % unit != 0 && length >= 8 * unit {
                let stored = UInt64(length / unit * unit)
                var estimate = WriteAlignmentEstimate()
                estimate.learn(offset: stored, chunkStart: 0, chunkEnd: UInt64(length))
                let learned = estimate.alignment ?? 0
                XCTAssertEqual(learned % unit, 0, "unit \(unit), chunk \(length): learned \(learned)")
                XCTAssertLessThanOrEqual(learned, max(unit, length / 8), "unit \(unit), chunk \(length): at most an eighth of a chunk is given up")
            }
        }
        var mcuboot = WriteAlignmentEstimate()
        mcuboot.learn(offset: 992, chunkStart: 0, chunkEnd: 994)
        mcuboot.learn(offset: 1984, chunkStart: 992, chunkEnd: 1986)
        XCTAssertEqual(mcuboot.alignment, 32, "MCUboot's answers 2 bytes short of 994-byte chunks")
    }

    func testChunkEndsAreAlignedFromAnUnalignedOffset() throws {
        let sizer = ChunkSizer(target: ImageUploadTarget(), maximumMessageSize: 300, alignment: 16, total: 10_000, sha: nil)
        let length = try sizer.length(at: 1_003, isFirst: false)
        XCTAssertEqual((1_003 + length) % 16, 0, "the chunk brings the next one back onto the unit")
        XCTAssertGreaterThan(length, 200)
    }
}
