/// A type that describes how a feature's state changes in response to an action, and what
/// effects it asks the store to run afterwards.
///
/// Implement either ``reduce(into:action:)`` for a reducer with its own logic, or ``body`` to
/// compose other reducers; the other requirement is derived.
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Sendable { case incrementTapped, decrementTapped }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .incrementTapped: state.count += 1
///     case .decrementTapped: state.count -= 1
///     }
///     return .none
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles. Actions cross from effects into the store, so they are
  /// `Sendable`.
  associatedtype Action: Sendable
  /// The type of the composed reducer ``body`` returns; `Never` for reducers that implement
  /// ``reduce(into:action:)`` themselves.
  associatedtype Body

  /// Changes `state` in response to `action` and returns the effects to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is made of, run in order for every action.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Scope(state: \.counter, action: .counter) { Counter() }
  ///   Reduce { state, action in
  ///     .none
  ///   }
  /// }
  /// ```
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer whose state and action are those of `R`: `some ReducerOf<Self>` in a `body`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  ///
  /// > Important: Loom never calls this; calling it yourself is a programming error.
  public var body: Body {
    // Reaching this is a programming error with no value to return: `Never` has no instances.
    // Loom itself only ever calls `reduce(into:action:)` on reducers whose `Body` is `Never`.
    fatalError("\(Self.self) implements reduce(into:action:) and has no body to call.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducer's ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}
