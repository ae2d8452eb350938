import Loom
import Testing

struct TestStreamTests {
  struct Failure: Error, Equatable {}

  @Test func readersGetTheValuesInOrderThenTheEnd() async {
    let stream = TestStream<Int>()
    stream.yield(1)
    stream.yield(2)
    stream.finish()
    stream.yield(3)
    var values: [Int] = []
    for await value in stream.stream { values.append(value) }
    #expect(values == [1, 2])
  }

  @Test func aReaderWaitsForTheNextValue() async {
    let stream = TestStream<String>()
    let reader = Task {
      var values: [String] = []
      for await value in stream.stream { values.append(value) }
      return values
    }
    for _ in 0..<10 { await Task.yield() }
    stream.yield("a")
    stream.yield("b")
    stream.finish()
    #expect(await reader.value == ["a", "b"])
  }

  @Test func aThrowingStreamEndsWithTheErrorTheTestFinishesItWith() async {
    let stream = TestStream<Int>()
    stream.yield(1)
    stream.finish(throwing: Failure())
    var values: [Int] = []
    await #expect(throws: Failure.self) {
      for try await value in stream.throwingStream { values.append(value) }
    }
    #expect(values == [1])
  }

  @Test func aCancelledReaderStopsWaiting() async {
    let stream = TestStream<Int>()
    let reader = Task {
      var count = 0
      for await _ in stream.stream { count += 1 }
      return count
    }
    for _ in 0..<10 { await Task.yield() }
    reader.cancel()
    #expect(await reader.value == 0)
  }
}

struct TestContinuationTests {
  struct Failure: Error, Equatable {}

  @Test func everyWaiterGetsTheValueTheTestResumesWith() async throws {
    let continuation = TestContinuation<Int>()
    let first = Task { try await continuation.value }
    let second = Task { try await continuation.value }
    for _ in 0..<10 { await Task.yield() }
    continuation.resume(returning: 7)
    continuation.resume(returning: 8)
    #expect(try await first.value == 7)
    #expect(try await second.value == 7)
    #expect(try await continuation.value == 7)
  }

  @Test func aWaiterGetsTheErrorTheTestResumesWith() async {
    let continuation = TestContinuation<Int>()
    continuation.resume(throwing: Failure())
    await #expect(throws: Failure.self) { try await continuation.value }
  }

  @Test func aCancelledWaiterThrowsCancellationError() async {
    let continuation = TestContinuation<Void>()
    let waiter = Task { try await continuation.value }
    for _ in 0..<10 { await Task.yield() }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }
}
