import Foundation
import Loom

/// W4c: the effects that sequence and time other effects. `.concatenate` starts each step when
/// the one before it has ended; `debounce` and `throttle` sleep on a clock (an
/// `ImmediateClock` here, so the figures are the runtime's cost, not the wait).
struct SequencedFeature: Reducer {
  struct State: Equatable { var done = 0 }
  enum Action: Sendable, Equatable { case concatenate, debounce, throttle, done }
  enum CancelID { case debounce, throttle }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .concatenate:
      return .concatenate(
        .run { send in await send(.done) },
        .send(.done),
        .run { send in await send(.done) }
      )
    case .debounce:
      return .run { send in await send(.done) }
        .debounce(id: CancelID.debounce, for: .milliseconds(300), clock: ImmediateClock())
    case .throttle:
      return .run { send in await send(.done) }
        .throttle(id: CancelID.throttle, for: .seconds(1), clock: ImmediateClock(), latest: true)
    case .done:
      state.done += 1
      return .none
    }
  }
}

@MainActor
func runW4c(scale: Int) async {
  let roundTrips = 50_000 / scale
  for (action, name, expected) in [
    (SequencedFeature.Action.concatenate, "concatenate awaited", 3),
    (.debounce, "debounce awaited", 1),
    (.throttle, "throttle awaited", 1),
  ] {
    let awaited = await median {
      let store = Store(initialState: SequencedFeature.State()) { SequencedFeature() }
      for _ in 0..<roundTrips {
        await store.send(action).finish()
      }
      if store.state.done != roundTrips * expected {
        FileHandle.standardError.write(
          Data("W4c: expected \(roundTrips * expected) .done, got \(store.state.done)\n".utf8))
      }
    }
    report("W4c", name, awaited.nanoseconds / Double(roundTrips) / 1_000, "µs/round trip")
  }
}
