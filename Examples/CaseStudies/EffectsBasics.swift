// Side effects and their cancellation. "Number fact" asks an injected `FactClient` for a fact
// about the count; the reducer marks the request in flight (a view shows a spinner) and turns
// the answer, or the failure, into an action. The request is registered under a cancel id, so
// "Cancel", or a change of the count (which makes the fact about a stale number), cancels it:
// its answer never reaches the state.
import Loom

struct FactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

private enum FactClientKey: DependencyKey {
  // A real client would ask a server; this one tells a fact it can work out on its own.
  static let liveValue = FactClient { number in
    "\(number) is an \(number.isMultiple(of: 2) ? "even" : "odd") number."
  }
  static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClientKey.self] }
    set { self[FactClientKey.self] = newValue }
  }
}

struct EffectsBasics: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isFactRequestInFlight = false
  }
  enum Action: Sendable, Equatable {
    case cancelButtonTapped
    case decrementButtonTapped
    case factButtonTapped
    case factFailed
    case factResponse(String)
    case incrementButtonTapped
  }
  enum CancelID { case fact }
  @Dependency(\.factClient) var factClient

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelButtonTapped:
      state.isFactRequestInFlight = false
      return .cancel(id: CancelID.fact)
    case .decrementButtonTapped, .incrementButtonTapped:
      state.count += action == .incrementButtonTapped ? 1 : -1
      state.fact = nil
      state.isFactRequestInFlight = false
      return .cancel(id: CancelID.fact)
    case .factButtonTapped:
      state.fact = nil
      state.isFactRequestInFlight = true
      return .run { [count = state.count] send in
        await send(.factResponse(try await factClient.fetch(count)))
      } catch: { _, send in
        await send(.factFailed)   // a real app might show an alert
      }
      .cancellable(id: CancelID.fact)
    case .factFailed:
      state.isFactRequestInFlight = false
      return .none
    case .factResponse(let fact):
      state.fact = fact
      state.isFactRequestInFlight = false
      return .none
    }
  }
}
