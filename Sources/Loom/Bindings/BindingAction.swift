/// An action that sets one field of the state to a value: what a form field sends, so that it
/// needs no action of its own.
///
/// A feature whose action conforms to ``BindableAction`` runs a ``BindingReducer``, which applies
/// it; the feature's own reducer sees it too, and can react to a field by matching its key path:
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .binding(\.name):
///     state.isSaved = false
///     return .none
///   case .binding, .saveTapped:
///     return .none
///   }
/// }
/// ```
///
/// Two binding actions are equal when they set the same field to equal values, so a test store
/// compares them as it compares any action.
public struct BindingAction<Root>: Sendable, Equatable, CustomStringConvertible {
  /// The field it sets.
  public let keyPath: PartialKeyPath<Root> & Sendable
  /// The value it sets the field to.
  public let value: any Sendable
  @usableFromInline let set: @Sendable (inout Root) -> Void
  private let isEqualValue: @Sendable (any Sendable) -> Bool

  /// An action that sets the field at `keyPath` to `value`.
  ///
  /// ```swift
  /// store.send(.binding(.set(\.name, "Ada")))
  /// ```
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath, value: value,
      set: { $0[keyPath: keyPath] = value },
      isEqualValue: { ($0 as? Value) == value })
  }

  /// Sets the field of `root` to the value.
  @inlinable
  public func apply(to root: inout Root) {
    set(&root)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath as AnyKeyPath == rhs.keyPath as AnyKeyPath && lhs.isEqualValue(rhs.value)
  }

  /// Whether `action` sets the field at `keyPath`, whatever the value: `case .binding(\.name):`
  /// in a `switch` over a ``BindableAction``.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath as AnyKeyPath == keyPath as AnyKeyPath
  }

  public var description: String {
    "set(\(keyPath), \(String(reflecting: value)))"
  }
}

/// An action with a case that carries a ``BindingAction`` of the feature's state: the fields of
/// the state a view may write (a text field, a toggle) are then set by one action, applied by a
/// ``BindingReducer``.
///
/// Declare the case and read it back (the one line a macro would write):
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveTapped
///
///   var binding: BindingAction<State>? { if case .binding(let action) = self { action } else { nil } }
/// }
/// ```
public protocol BindableAction: Sendable {
  /// The state whose fields the binding actions set.
  associatedtype State

  /// The action that carries `action`.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, if it is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The action that sets the field at `keyPath` to `value`: `.set(\.name, "Ada")` is
  /// `.binding(.set(\.name, "Ada"))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable, _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}
