extension Store {
  /// Reads a field of the state: `store.count` is `store.state.count`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    read(keyPath)
  }
}

extension Store where Action: BindableAction, Action.State == State {
  /// A field of the state that a view may also write: writing it sends
  /// `.binding(.set(keyPath, value))`, which the feature's ``BindingReducer`` applies.
  ///
  /// ```swift
  /// store.name = "Ada"   // sends .binding(.set(\.name, "Ada"))
  /// ```
  ///
  /// With SwiftUI, `@Bindable var store` makes `$store.name` a `Binding` that does just that:
  /// `TextField("Name", text: $store.name)`.
  @inlinable
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value> & Sendable
  ) -> Value {
    get { read(keyPath) }
    set { send(.binding(.set(keyPath, newValue))) }
  }
}
