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

struct RandomUUIDGeneratorTests {
  @Test func randomUUIDsAreVersion4AndDistinct() {
    let uuid = UUIDGenerator.random
    let generated = (0..<1_000).map { _ in uuid() }
    #expect(Set(generated).count == generated.count)
    for id in generated {
      let text = Array(id.uuidString)
      #expect(text[14] == "4", "version nibble of \(id)")
      #expect("89AB".contains(text[19]), "variant of \(id)")
    }
  }

  @Test func theVersionAndVariantBitsAreSetOverTheRandomBits() {
    #expect(UUID(randomBits: (0, 0)).uuidString == "00000000-0000-4000-8000-000000000000")
    #expect(
      UUID(randomBits: (.max, .max)).uuidString == "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF")
    #expect(
      UUID(randomBits: (0x0102_0304_0506_0708, 0x090A_0B0C_0D0E_0F10)).uuidString
        == "01020304-0506-4708-890A-0B0C0D0E0F10")
  }

  @Test func theLiveUUIDGeneratorIsTheRandomOne() {
    let live = withDependencies { $0.context = .live } operation: {
      DependencyValues.current.uuid
    }
    let id = live()
    #expect(Array(id.uuidString)[14] == "4")
  }
}
