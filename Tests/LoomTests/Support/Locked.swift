import Loom

/// A value shared between a test and the effects it starts.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: LockedState<Value>

  init(_ value: Value) {
    mutex = LockedState(value)
  }

  var value: Value {
    mutex.withLock { $0 }
  }

  func withValue<R: Sendable>(_ body: (inout Value) -> R) -> R {
    mutex.withLock { body(&$0) }
  }
}

extension Locked where Value == [String] {
  func append(_ element: String) {
    withValue { $0.append(element) }
  }
}
