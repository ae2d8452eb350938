/// A path from an enum to the payload of one of its cases: it can embed a payload into the enum
/// and try to extract one from it.
///
/// Case paths let `Scope`, `ifLet`, `forEach` and `TestStore.receive` talk about one case of an
/// action or state enum without macros or reflection. Declare one per case you compose, a line
/// each, as static properties in an extension of `CasePath` whose `Root` is the enum, and refer
/// to them with a leading dot:
///
/// ```swift
/// enum AppAction {
///   case counter(Counter.Action)
///   case refresh
/// }
///
/// extension CasePath where Root == AppAction {
///   static var counter: CasePath<Root, Counter.Action> { .init(Root.counter) { if case .counter(let a) = $0 { a } else { nil } } }
/// }
///
/// Scope(state: \.counter, action: .counter) { Counter() }
/// ```
///
/// Case paths declared so chain with dots, as implicit members wherever a case path is
/// expected: `.counter.incrementTapped` is `.counter` appending `Counter.Action`'s own
/// `.incrementTapped` (see ``subscript(dynamicMember:)``).
///
/// - Complexity: `embed` and `extract` are O(1) apart from the cost of copying the payload.
@dynamicMemberLookup
public struct CasePath<Root, Value>: Sendable {
  @usableFromInline let _embed: @Sendable (Value) -> Root
  @usableFromInline let _extract: @Sendable (Root) -> Value?

  /// Creates a case path from an embedding function (usually the enum case itself) and an
  /// extracting function.
  ///
  /// ```swift
  /// let path = CasePath(AppAction.counter) { if case .counter(let a) = $0 { a } else { nil } }
  /// ```
  @inlinable
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Wraps a payload in the case this path describes.
  @inlinable
  public func embed(_ value: Value) -> Root { _embed(value) }

  /// Returns the payload if `root` is the case this path describes, and `nil` otherwise.
  @inlinable
  public func extract(from root: Root) -> Value? { _extract(root) }

  /// Returns a path that goes through this path and then through `next`.
  ///
  /// ```swift
  /// let settings: CasePath<AccountAction, SettingsAction> = .settings
  /// let settingsRow = settings.appending(.row)   // CasePath<AccountAction, Row.Action>
  /// ```
  public func appending<Next>(_ next: CasePath<Value, Next>) -> CasePath<Root, Next> {
    let embed = _embed
    let extract = _extract
    return CasePath<Root, Next>(
      { embed(next.embed($0)) },
      extract: { extract($0).flatMap(next.extract(from:)) }
    )
  }

  /// The case path to a case of the payload's own enum: `.counter.incrementTapped` is
  /// `.counter` appending `.incrementTapped`, declared as a static property of a `CasePath`
  /// whose `Root` is the payload's enum.
  ///
  /// ```swift
  /// await store.receive(.counter.incrementTapped) { $0.counter.count = 1 }
  /// ```
  @inlinable
  public subscript<Next>(
    dynamicMember next: KeyPath<CasePath<Value, Value>.Type, CasePath<Value, Next>>
  ) -> CasePath<Root, Next> {
    appending(CasePath<Value, Value>.self[keyPath: next])
  }
}

extension CasePath where Value == Void {
  /// Creates a case path for a case without a payload.
  ///
  /// ```swift
  /// extension CasePath where Root == AppAction, Value == Void {
  ///   static var refresh: Self { Self(.refresh) { if case .refresh = $0 { () } else { nil } } }
  /// }
  /// ```
  public init(_ root: Root, extract: @escaping @Sendable (Root) -> Void?) where Root: Sendable {
    self.init({ _ in root }, extract: extract)
  }
}

extension CasePath where Root == Value {
  /// The identity path: embeds and extracts the value itself.
  public static var identity: Self { Self({ $0 }, extract: { $0 }) }
}
