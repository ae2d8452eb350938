import Foundation
import Loom
import Testing

/// A `@Dependency` keeps the value it last read, with the dependencies it read it from: read
/// again from the same dependencies it costs a comparison, and read from changed ones (another
/// store's, a test's override, any change) it is read anew.
struct DependencyReadTests {
  @Test func aKeyPathThroughAComputedValueIsAppliedOnEveryRead() {
    struct Clock: Sendable { @Dependency(\.date.now) var now }
    withSecondsCounted {
      let clock = Clock()
      let reads = [clock.now, clock.now, clock.now]
      #expect(reads == [1, 2, 3].map(Date.init(timeIntervalSince1970:)))
    }
  }

  @Test func aKeyPathEndingAtADependencyIsAppliedOncePerSetOfDependencies() {
    struct Reader: Sendable { @Dependency(\.countedUUID) var uuid }
    let reader = Reader()
    countedReads.withLock { $0 = 0 }
    withDependencies { $0.uuid = .constant(UUID(1)) } operation: {
      for _ in 0..<3 { #expect(reader.uuid() == UUID(1)) }
    }
    withDependencies { $0.uuid = .constant(UUID(2)) } operation: {
      for _ in 0..<3 { #expect(reader.uuid() == UUID(2)) }
    }
    #expect(countedReads.withLock { $0 } == 2)
  }

  // What a key path ends at is found out by the first reader of it in the process, and known
  // to every reader made after it (a child reducer's `@Dependency` is made at every action).

  @Test func aFreshReaderOfAKeyPathThroughAComputedValueIsAppliedOnEveryReadToo() {
    struct Clock: Sendable { @Dependency(\.date.now) var now }
    withSecondsCounted {
      _ = Clock().now
      let fresh = Clock()
      let reads = [fresh.now, fresh.now, fresh.now]
      #expect(reads == [2, 3, 4].map(Date.init(timeIntervalSince1970:)))
    }
  }

  @Test func aFreshReaderOfAKeyPathEndingAtADependencyKeepsWhatItRead() {
    struct Reader: Sendable { @Dependency(\.countedUUIDAgain) var uuid }
    withDependencies { $0.uuid = .constant(UUID(3)) } operation: {
      _ = Reader().uuid()
      countedAgainReads.withLock { $0 = 0 }
      let fresh = Reader()
      for _ in 0..<3 { #expect(fresh.uuid() == UUID(3)) }
    }
    #expect(countedAgainReads.withLock { $0 } == 1)
  }

  @Test func keyPathsMadeAtRunTimeAreReadRightAndRememberedUpToALimit() {
    withDependencies { $0.uuid = .constant(UUID(4)) } operation: {
      for index in 0..<1_100 {
        // A key path with an argument is made anew, an object of its own, each time.
        let reader = Dependency(\DependencyValues.[uuidNumbered: index])
        #expect(reader.wrappedValue() == UUID(4))
      }
    }
    #expect(rememberedKeyPathEndCount() <= 1_024)
  }

  struct Reader: Sendable {
    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
  }

  @Test func aReadFromChangedDependenciesReadsTheNewValue() {
    let reader = Reader()
    let first = withDependencies {
      $0.uuid = .constant(UUID(1))
    } operation: {
      reader.uuid()
    }
    let second = withDependencies {
      $0.uuid = .constant(UUID(2))
    } operation: {
      reader.uuid()
    }
    #expect([first, second] == [UUID(1), UUID(2)])
  }

  @Test func aChangeToAnotherDependencyOrToTheContextReadsAgainToo() {
    let reader = Reader()
    withDependencies {
      $0.uuid = .constant(UUID(1))
      $0.date = .constant(Date(timeIntervalSince1970: 1))
    } operation: {
      #expect(reader.uuid() == UUID(1))
      withDependencies {
        $0.date = .constant(Date(timeIntervalSince1970: 2))
      } operation: {
        #expect(reader.date.now == Date(timeIntervalSince1970: 2))
        #expect(reader.uuid() == UUID(1))
        withDependencies {
          $0.uuid = .constant(UUID(3))
        } operation: {
          #expect(reader.uuid() == UUID(3))
        }
        #expect(reader.uuid() == UUID(1))
      }
    }
  }

  @Test func copiesOfTheReaderReadTheirCurrentDependencies() {
    let readers = [Reader(), Reader()]
    for (offset, reader) in readers.enumerated() {
      for value in 1...3 {
        let id = UUID(UInt64(offset * 10 + value))
        let read = withDependencies {
          $0.uuid = .constant(id)
        } operation: {
          reader.uuid()
        }
        #expect(read == id)
      }
    }
  }
}

/// Runs `body` with a date generator that gives 1 s, 2 s, 3 s… after 1970, one more at each read.
private func withSecondsCounted(_ body: () -> Void) {
  let seconds = LockedState(0.0)
  withDependencies {
    $0.date = DateGenerator {
      seconds.withLock {
        $0 += 1
        return Date(timeIntervalSince1970: $0)
      }
    }
  } operation: {
    body()
  }
}

/// How many times `countedUUID` was read.
let countedReads = LockedState(0)
/// How many times `countedUUIDAgain` was read.
let countedAgainReads = LockedState(0)

extension DependencyValues {
  /// `uuid`, counting its reads.
  fileprivate var countedUUID: UUIDGenerator {
    countedReads.withLock { $0 += 1 }
    return self.uuid
  }

  /// `uuid`, under a number: a key path to it is a new object each time it is made.
  fileprivate subscript(uuidNumbered number: Int) -> UUIDGenerator { self.uuid }

  /// `uuid`, counting its reads (a key path of its own, read by one test only).
  fileprivate var countedUUIDAgain: UUIDGenerator {
    countedAgainReads.withLock { $0 += 1 }
    return self.uuid
  }
}
