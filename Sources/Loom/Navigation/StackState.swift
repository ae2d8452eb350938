import Synchronization

/// The id of an element of a ``StackState``: the stack gives each element it holds one, 0, 1,
/// 2… in the order pushed, never used twice in one stack. A test spells them as integers.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  public let rawValue: Int

  public init(integerLiteral value: Int) {
    rawValue = value
  }

  @usableFromInline
  init(rawValue: Int) {
    self.rawValue = rawValue
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// The state of a navigation stack: the screens pushed, bottom first, each with the id the
/// stack gave it when it was pushed.
///
/// A parent holds one and runs its elements with ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``,
/// which cancels the effects of each element popped (and of its children):
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
/// // …
/// state.path.append(.detail(Detail.State()))   // pushed with id 0
/// state.path.removeAll()                       // pop to root
/// ```
public struct StackState<Element> {
  @usableFromInline
  struct Component {
    @usableFromInline let id: StackElementID
    @usableFromInline var element: Element

    @usableFromInline
    init(id: StackElementID, element: Element) {
      self.id = id
      self.element = element
    }
  }

  @usableFromInline var components: IdentifiedArray<StackElementID, Component>
  /// Which element each one is, bottom first: a token no other element pushed in this process
  /// has, given when it was pushed. An id names an element in one stack's history only: a
  /// stack made anew (`state.path = [a, b]`) numbers from 0 again, and a copy kept from before
  /// a push and put back gives the id of the element pushed since to the next one. Reducers and
  /// stores tell elements apart by their tokens, so an element's effects and store never reach
  /// another element given its id. Not compared: two stacks are equal when their elements are,
  /// under the same ids.
  ///
  /// An array of its own, beside the elements: a reducer compares the tokens before and after
  /// the parent's reducer, which, when the stack did not change, is one comparison of two
  /// references to the same buffer.
  @usableFromInline var tokens: [UInt64] = []
  /// The id the next element pushed gets: one past every id this stack gave.
  @usableFromInline var nextID = 0

  /// An empty stack.
  public init() {
    components = IdentifiedArray(
      uncheckedUniqueElements: [], idPath: IDPath(id: { $0.id }))
  }

  /// A stack of `elements`, bottom first, with ids 0, 1, 2…
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The ids of the elements, bottom first.
  @inlinable public var ids: [StackElementID] { components.ids }

  /// The element with this id, if the stack holds it. Setting `nil` removes that element.
  public subscript(id id: StackElementID) -> Element? {
    get { components[id: id]?.element }
    set {
      guard let newValue else {
        if let position = components.index(id: id) { remove(at: position) }
        return
      }
      guard let position = components.index(id: id) else {
        reportIssue(
          "An element was written to [id: \(id)] of a StackState that holds no element with that id: "
            + "push it with append(_:) instead. The write was ignored.")
        return
      }
      components[position].element = newValue
    }
  }

  /// Pushes `element` on top, with a new id.
  public mutating func append(_ element: Element) {
    guard nextID < Int.max else {
      reportIssue("A StackState gave every id it can: the element was not pushed.")
      return
    }
    push(element, id: StackElementID(rawValue: nextID))
  }

  /// Pushes `element` with `id` (new to the stack) and a new token.
  private mutating func push(_ element: Element, id: StackElementID) {
    components.append(Component(id: id, element: element))
    tokens.append(stackElementTokens.wrappingAdd(1, ordering: .relaxed).newValue)
    nextID = id.rawValue + 1
  }

  /// Removes the element at `position`, with its token.
  @discardableResult
  private mutating func remove(at position: Int) -> Element {
    tokens.remove(at: position)
    return components.remove(at: position).element
  }

  /// Pushes `element` on top with `id`, which must be new to this stack: greater than every id
  /// it gave.
  ///
  /// - Returns: Whether it was pushed: `false` for an id the stack gave, or could have given,
  ///   already (and for `Int.max`, after which it could give no id).
  @discardableResult
  public mutating func append(_ element: Element, id: StackElementID) -> Bool {
    guard id.rawValue >= nextID, id.rawValue < Int.max else { return false }
    push(element, id: id)
    return true
  }

  /// Pops the top element.
  @discardableResult
  public mutating func popLast() -> Element? {
    components.isEmpty ? nil : remove(at: components.count - 1)
  }

  /// Pops the `count` top elements (all of them when there are fewer).
  public mutating func removeLast(_ count: Int = 1) {
    let kept = Swift.max(0, components.count - Swift.max(0, count))
    while components.count > kept { remove(at: components.count - 1) }
  }

  /// Pops the element with this id and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let position = components.index(id: id) else { return }
    removeLast(components.count - position)
  }

  /// Pops every element above the one with this id.
  public mutating func pop(to id: StackElementID) {
    guard let position = components.index(id: id) else { return }
    removeLast(components.count - position - 1)
  }

  /// Pops every element: back to the root.
  public mutating func removeAll() {
    components.removeAll()
    tokens.removeAll()
  }

  /// Runs `body` on the element with this id, in place, and returns its result and the
  /// element's token; `nil` when the stack holds no such element.
  @inlinable
  mutating func _update<Result>(
    id: StackElementID, _ body: (inout Element) -> Result
  ) -> (Result, UInt64)? {
    guard let position = components.index(id: id) else { return nil }
    var component = components._elements[position]
    let result = body(&component.element)
    components._write(component, as: id, at: position)
    return (result, tokens[position])
  }

  /// The token of the element with this id, if the stack holds it (see ``tokens``).
  @inlinable
  func token(of id: StackElementID) -> UInt64? {
    components.index(id: id).map { tokens[$0] }
  }
}

/// Gives each element pushed on any stack its token (see `StackState.tokens`).
private let stackElementTokens = Atomic<UInt64>(0)

extension StackState: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { components.count }

  /// The element at `position`, from the bottom.
  public subscript(position: Int) -> Element {
    get { components[position].element }
    _modify { yield &components[position].element }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Two stacks are equal when they hold equal elements with the same ids (whatever ids each
  /// would give next).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elementsEqual(rhs)
  }
}

extension StackState: Sendable where Element: Sendable {}
extension StackState.Component: Sendable where Element: Sendable {}

extension StackState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(
      self, unlabeledChildren: components.map { ($0.id, $0.element) }, displayStyle: .collection)
  }
}

/// What happens to a navigation stack: an action of one of its elements, a pop, or a push.
public enum StackAction<State, Action> {
  /// An action of the element with this id.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with this id and every element above it.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must be new to the stack.
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

/// The stack action of an element reducer.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>
