/// Builds a reducer out of the reducers listed in a ``Reducer/body`` or a composition closure.
/// The reducers run in the order they are listed and their effects are merged.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Reduce { state, action in .none }
///   if isLoggingEnabled {
///     Logger()
///   }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  // Each function is `@_transparent`: inlined where the body is written, before the optimizer
  // runs, the reducer a body builds (at every action) is a plain value. Merely inlinable, each
  // generic call passed it through a temporary the optimizer could not take apart again, and
  // each action copied the built reducer out of it: 18% of a `forEach` row's action (W3).
  @_transparent
  public static func buildExpression<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  @_transparent
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  @_transparent
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  @_transparent
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _SequencedReducers<R0, R1> {
    _SequencedReducers(first: accumulated, second: next)
  }

  @_transparent
  public static func buildOptional<R: Reducer<State, Action>>(_ reducer: R?) -> R? {
    reducer
  }

  @_transparent
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    first reducer: First
  ) -> _ConditionalReducer<First, Second> {
    .first(reducer)
  }

  @_transparent
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    second reducer: Second
  ) -> _ConditionalReducer<First, Second> {
    .second(reducer)
  }

  @_transparent
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ReducerArray<R> {
    _ReducerArray(reducers: reducers)
  }

  @_transparent
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ reducer: R
  ) -> R {
    reducer
  }
}

/// Two reducers run one after the other, their effects merged. Built by ``ReducerBuilder``.
public struct _SequencedReducers<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline let first: R0
  @usableFromInline let second: R1

  @inlinable
  init(first: R0, second: R1) {
    self.first = first
    self.second = second
  }

  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return .merge(firstEffect, secondEffect)
  }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a builder.
public enum _ConditionalReducer<First: Reducer, Second: Reducer<First.State, First.Action>>:
  Reducer
{
  case first(First)
  case second(Second)

  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let reducer): reducer.reduce(into: &state, action: action)
    case .second(let reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// Reducers built by a `for` loop in a builder, run in order.
public struct _ReducerArray<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable
  init(reducers: [Element]) {
    self.reducers = reducers
  }

  @inlinable
  public func reduce(
    into state: inout Element.State, action: Element.Action
  ) -> Effect<Element.Action> {
    .merge(reducers.map { $0.reduce(into: &state, action: action) })
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  public typealias Body = Never

  /// Runs the wrapped reducer if there is one.
  @inlinable
  public func reduce(
    into state: inout Wrapped.State, action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    switch self {
    case .some(let reducer): reducer.reduce(into: &state, action: action)
    case .none: .none
    }
  }
}
