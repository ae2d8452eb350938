import Foundation
import Loom

/// W4: `.start` returns a `.run` that sends `.done`; `.done` increments a counter.
struct RoundTripFeature: Reducer {
  struct State: Equatable { var done = 0 }
  enum Action: Sendable, Equatable { case start, done }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in await send(.done) }
    case .done:
      state.done += 1
      return .none
    }
  }
}

@MainActor
func runW4(scale: Int) async {
  let roundTrips = 100_000 / scale
  let awaited = await median {
    let store = Store(initialState: RoundTripFeature.State()) { RoundTripFeature() }
    for _ in 0..<roundTrips {
      await store.send(.start).finish()
    }
  }
  report("W4", "round-trip awaited", awaited.nanoseconds / Double(roundTrips) / 1_000, "µs/round trip")

  let sends = 10_000 / scale
  let unawaited = await median {
    let store = Store(initialState: RoundTripFeature.State()) { RoundTripFeature() }
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(sends)
    for _ in 0..<sends { tasks.append(store.send(.start)) }
    for task in tasks { await task.finish() }
    let done = store.state.done
    if done != sends {
      FileHandle.standardError.write(Data("W4: expected \(sends) .done, got \(done)\n".utf8))
    }
  }
  report("W4", "round-trip unawaited n=\(sends)", unawaited.nanoseconds / 1e6, "ms total")
}

/// W5: effects that each wait an hour, each cancellable with its own id.
struct SleepersFeature: Reducer {
  struct State {}
  enum Action: Sendable { case start(Int), cancel(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let id):
      return .run { _ in try await Task.sleep(for: .seconds(3_600)) }.cancellable(id: id)
    case .cancel(let id):
      return .cancel(id: id)
    }
  }
}

@MainActor
func runW5(scale: Int) async {
  let count = 10_000 / scale
  var startTimes: [Duration] = []
  var cancelTimes: [Duration] = []
  var cancelSendTimes: [Duration] = []
  var perEffect: [Double] = []
  for _ in 0..<6 {
    let store = Store(initialState: SleepersFeature.State()) { SleepersFeature() }
    let before = memoryKiB("VmRSS") ?? 0
    let startedAt = ContinuousClock.now
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(count)
    for id in 0..<count { tasks.append(store.send(.start(id))) }
    startTimes.append(ContinuousClock.now - startedAt)
    // Let every task reach its sleep, so the memory figure counts suspended effects.
    for _ in 0..<10 { await Task.yield() }
    let during = memoryKiB("VmRSS") ?? 0
    perEffect.append(max(0, during - before) / Double(count))
    let cancelledAt = ContinuousClock.now
    for id in 0..<count { store.send(.cancel(id)) }
    // What the sends cost apart (each a reducer run and a look-up of the effects to cancel),
    // before the cancelled tasks wake, end, and are awaited.
    cancelSendTimes.append(ContinuousClock.now - cancelledAt)
    for task in tasks { await task.finish() }
    cancelTimes.append(ContinuousClock.now - cancelledAt)
    let left = store.inFlightEffectCount
    if left != 0 {
      FileHandle.standardError.write(Data("W5: \(left) effects left in flight\n".utf8))
    }
  }
  // The first run is the warm-up.
  func middle<T: Comparable>(_ values: [T]) -> T {
    let measured = values.dropFirst().sorted()
    return measured[measured.count / 2]
  }
  report("W5", "cancellation start n=\(count)", middle(startTimes).nanoseconds / 1e6, "ms")
  report("W5", "cancellation cancel n=\(count)", middle(cancelTimes).nanoseconds / 1e6, "ms")
  report(
    "W5", "cancellation cancel sends n=\(count)", middle(cancelSendTimes).nanoseconds / 1e6, "ms")
  report("W5", "cancellation peak-rss", (memoryKiB("VmHWM") ?? 0) / 1024, "MiB")
  report("W5", "cancellation per-effect", middle(perEffect), "KiB/effect")
}

/// The floor under W4 (b) and W5: what the same counts of bare tasks cost, with no store. W4's
/// floor is 10,000 tasks started from the main actor, each hopping back to it once (an effect's
/// `send`) and awaited; W5's is 10,000 tasks that each sleep an hour, started at once
/// (`Task.immediate`, as effects start: each reaches its sleep before the next starts), then
/// cancelled and awaited. Loom's figure over its floor is what the store adds.
@MainActor
func runTaskFloor(scale: Int) async {
  let count = 10_000 / scale
  let roundTrips = await median {
    var done = 0
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(count)
    for _ in 0..<count {
      tasks.append(Task { @MainActor in done += 1 })
    }
    for task in tasks { await task.value }
    if done != count {
      FileHandle.standardError.write(Data("W4 floor: expected \(count), got \(done)\n".utf8))
    }
  }
  report("W4", "floor unawaited n=\(count)", roundTrips.nanoseconds / 1e6, "ms total")

  var startTimes: [Duration] = []
  var cancelTimes: [Duration] = []
  var cancelCallTimes: [Duration] = []
  for _ in 0..<6 {
    let startedAt = ContinuousClock.now
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(count)
    for _ in 0..<count {
      // Started at once, as an effect is: it runs to its sleep inside the loop.
      tasks.append(Task.immediate { @MainActor in try? await Task.sleep(for: .seconds(3_600)) })
    }
    startTimes.append(ContinuousClock.now - startedAt)
    for _ in 0..<10 { await Task.yield() }
    let cancelledAt = ContinuousClock.now
    for task in tasks { task.cancel() }
    cancelCallTimes.append(ContinuousClock.now - cancelledAt)
    for task in tasks { await task.value }
    cancelTimes.append(ContinuousClock.now - cancelledAt)
  }
  func middle(_ values: [Duration]) -> Duration {
    let measured = values.dropFirst().sorted()
    return measured[measured.count / 2]
  }
  report("W5", "floor start n=\(count)", middle(startTimes).nanoseconds / 1e6, "ms")
  report("W5", "floor cancel n=\(count)", middle(cancelTimes).nanoseconds / 1e6, "ms")
  report("W5", "floor cancel calls n=\(count)", middle(cancelCallTimes).nanoseconds / 1e6, "ms")
}
