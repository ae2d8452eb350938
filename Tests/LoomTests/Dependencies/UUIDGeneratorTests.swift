import Foundation
import Loom
import Testing

struct UUIDGeneratorTests {
  @Test func incrementingCountsFromZeroInTheLastDigits() {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000002")
  }

  @Test func eachIncrementingGeneratorStartsAtZero() {
    let first = UUIDGenerator.incrementing
    _ = first()
    #expect(UUIDGenerator.incrementing() == UUID(0))
  }

  @Test func anIntegerUUIDIsWhatTheIncrementingGeneratorReturnsForThatCall() {
    let uuid = UUIDGenerator.incrementing
    let generated: [UUID] = (0..<20).map { _ in uuid() }
    let expected: [UUID] = (0..<20).map { (value: Int) -> UUID in UUID(UInt64(value)) }
    #expect(generated == expected)
    #expect(UUID(10).uuidString == "00000000-0000-0000-0000-00000000000A")
    #expect(UUID(UInt64.max).uuidString == "00000000-0000-0000-FFFF-FFFFFFFFFFFF")
    #expect(UUID(0x0102_0304_0506_0708).uuidString == "00000000-0000-0000-0102-030405060708")
  }

  @Test func aConstantGeneratorRepeatsItsUUID() {
    let uuid = UUIDGenerator.constant(UUID(7))
    #expect(uuid() == UUID(7))
    #expect(uuid() == UUID(7))
  }
}
